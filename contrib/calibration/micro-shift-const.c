/* micro-shift-const: shifts by constant amounts at every width: left, logical right and
 * arithmetic right, by 1, 3, 4, 7, and by whole bytes (8, 16, 24), which AVR does with
 * register moves.  Calibrated apart from variable shifts, which AVR does with a loop.
 * Only unsigned or non-negative values are shifted left; signed right shifts are arithmetic.  */
#include <stdint.h>

#define N 8
#define ROUNDS 15

volatile uint8_t in_u8[N] = {3, 200, 17, 255, 0, 91, 128, 44};
volatile int8_t in_i8[N] = {-3, 100, -128, 5, 127, -60, 0, 33};
volatile uint16_t in_u16[N] = {1, 65535u, 4000, 32768u, 777, 12, 60000u, 300};
volatile int16_t in_i16[N] = {-1000, 32767, -32768, 5, 1200, -7, 0, 400};
volatile uint32_t in_u32[N] = {1, 0xffffffffUL, 70000UL, 0x80000000UL,
			       123456789UL, 12, 4000000000UL, 65537UL};
volatile int32_t in_i32[N] = {-100000L, 2147483647L, -32768L, 5, 1200000L, -7, 3, 40000L};
volatile uint32_t sink;

int main(void)
{
	uint8_t u8[N];
	int8_t i8[N];
	uint16_t u16[N];
	int16_t i16[N];
	uint32_t u32[N];
	int32_t i32[N];
	uint8_t acc8 = 0;
	uint16_t acc16 = 0;
	uint32_t acc32 = 0;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++) {
		u8[i] = in_u8[i];
		i8[i] = in_i8[i];
		u16[i] = in_u16[i];
		i16[i] = in_i16[i];
		u32[i] = in_u32[i];
		i32[i] = in_i32[i];
	}

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < N; i++) {
			/* 8-bit */
			acc8 = (uint8_t) (acc8 + (uint8_t) (u8[i] << 1) + (u8[i] >> 3));
			acc8 = (uint8_t) (acc8 ^ (uint8_t) (acc8 << 4));
			acc8 = (uint8_t) (acc8 + (int8_t) (i8[i] >> 2));
			u8[i] = (uint8_t) (u8[i] >> 1 | (uint8_t) (u8[i] << 7));
			/* 16-bit */
			acc16 = (uint16_t) (acc16 + (uint16_t) (u16[i] << 3) + (u16[i] >> 7));
			acc16 = (uint16_t) (acc16 ^ (acc16 >> 8));
			acc16 = (uint16_t) (acc16 + (uint16_t) (u16[i] << 8));
			acc16 = (uint16_t) (acc16 + (int16_t) (i16[i] >> 4) + (int16_t) (i16[i] >> 1));
			u16[i] = (uint16_t) (u16[i] << 1 | u16[i] >> 15);
			/* 32-bit */
			acc32 += (u32[i] << 5) + (u32[i] >> 3);
			acc32 ^= acc32 >> 16;
			acc32 += (u32[i] << 24) + (u32[i] >> 8);
			acc32 += (uint32_t) (i32[i] >> 7) + (uint32_t) (i32[i] >> 24);
			acc32 += (uint32_t) acc16 << 16;
			u32[i] = u32[i] << 1 | u32[i] >> 31;
		}
	}

	sink = acc32 + acc16 + acc8;
	return 0;
}
