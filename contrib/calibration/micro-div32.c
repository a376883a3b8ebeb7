/* micro-div32: 32-bit division, unsigned and signed, by variables, by constants and
 * by 16-bit values widened to 32 bits.  On AVR these are the libgcc calls __udivmodsi4
 * and __divmodsi4 (hundreds of cycles each), the dearest integer operation there is.
 * Divisors are never 0; signed quotients are summed into an unsigned accumulator.  */
#include <stdint.h>

#define N 8
#define ROUNDS 6

volatile uint32_t in_u32[N] = {1, 0xffffffffUL, 70000UL, 0x80000000UL,
			       123456789UL, 12, 4000000000UL, 65537UL};
volatile int32_t in_i32[N] = {-100000L, 2147483647L, -32768L, 5, 1200000L, -7, 3, 40000L};
volatile uint16_t in_u16[N] = {1, 65535u, 4000, 32768u, 777, 12, 60000u, 300};
volatile uint32_t sink;

int main(void)
{
	uint32_t u32[N];
	int32_t i32[N];
	uint16_t u16[N];
	uint32_t acc = 0;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++) {
		u32[i] = in_u32[i];
		i32[i] = in_i32[i];
		u16[i] = in_u16[i];
	}

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < N; i++) {
			uint8_t j = (uint8_t) (N - 1 - i);
			uint32_t d = u32[j] | 1;
			int32_t s = i32[j] | 1;	/* odd: never 0, and never -1 here */

			acc += u32[i] / d;
			acc += u32[i] / 1000UL;
			acc += u32[i] / u16[j];
			acc += (uint32_t) (i32[i] / s);
			acc += (uint32_t) (i32[i] / -60L);
			acc += (uint32_t) (i32[i] / (int32_t) (i + 1));
			u32[i] = u32[i] * 3 + acc;
		}
	}

	sink = acc;
	return 0;
}
