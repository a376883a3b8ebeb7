/* Divisions whose quotients have a known number of 1 bits, the steps of AVR's division routines
 * that subtract (value counters "qbits"): 16 and 32 bits, signed and unsigned, a quotient and
 * remainder of the same operands (one call), results used far from the division, in a branch and
 * in a return; 8- and 64-bit divisions, which are not counted. Every divisor is a variable. Exits
 * 0 when every result is right.  */
#include <stdint.h>

volatile uint16_t a16 = 50000, b16 = 3, c16 = 1000;	/* 16666 = 0x411a: 5 one bits; 50: 3 */
volatile uint32_t a32 = 0xffffffffUL, b32 = 1, d32 = 10;	/* 32; 429496729 = 0x19999999: 15 */
volatile int32_t s32 = -1000000L, t32 = 7;	/* -142857, 0x22e09 in magnitude: 7 */
volatile int16_t s16 = -30000, t16 = 7;	/* -4285, 0x10bd in magnitude: 7 */
volatile uint64_t a64 = 1000000, b64 = 3;
volatile uint8_t a8 = 200, b8 = 7;
volatile uint32_t sink;

static uint16_t remainder16(uint16_t x, uint16_t y)
{
	return x % y;
}

int main(void)
{
	uint32_t acc = 0;
	uint8_t i;

	for (i = 0; i < 3; i++) {
		uint32_t x = a32, d = d32, q, r;

		acc += a16 / b16;
		acc += a32 % b32;
		acc += (uint32_t) (s32 / t32);
		if (s16 % t16 == -5)
			acc++;
		acc += remainder16(a16, c16);
		q = x / d;
		r = x % d;
		acc += q + r;
		acc += (uint32_t) (a64 / b64) + (uint8_t) (a8 / b8);
	}
	sink = acc;
	return acc != (uint32_t) (3UL * (16666 + 0 + (uint32_t) -142857L + 1 + 0 + 429496729UL + 5 + 333333 + 28));
}
