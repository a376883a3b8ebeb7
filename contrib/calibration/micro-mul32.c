/* micro-mul32: 32-bit multiplications: u32 x u32, i32 x i32, by constants, and the
 * widening 16x16->32 forms (unsigned and signed), on locals and array elements.
 * On AVR these are libgcc calls (__mulsi3; __umulhisi3, __muluhisi3 and at -Os
 * __mulohisi3 for the widening forms), dearer than the inline 8/16-bit MUL sequences.  */
#include <stdint.h>

#define N 8
#define ROUNDS 25

volatile uint32_t in_u32[N] = {1, 0xffffffffUL, 70000UL, 0x80000000UL,
			       123456789UL, 12, 4000000000UL, 65537UL};
volatile int32_t in_i32[N] = {-1000, 999, -32768L, 5, 12000, -7, 0, 40000L};
volatile uint16_t in_u16[N] = {1, 65535u, 4000, 32768u, 777, 12, 60000u, 300};
volatile int16_t in_i16[N] = {-1000, 32767, -32768, 5, 1200, -7, 0, 400};
volatile uint32_t sink;

int main(void)
{
	uint32_t u32[N];
	int32_t i32[N];
	uint16_t u16[N];
	int16_t i16[N];
	uint32_t acc_u32 = 1, wide = 0, hash = 2166136261UL;
	int32_t acc_i32 = 0;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++) {
		u32[i] = in_u32[i];
		i32[i] = in_i32[i];
		u16[i] = in_u16[i];
		i16[i] = in_i16[i];
	}

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < N; i++) {
			uint8_t j = (uint8_t) (N - 1 - i);

			/* u32 x u32, wrapping */
			acc_u32 = acc_u32 * u32[i] + 1;
			u32[i] = u32[i] * 1664525UL + 1013904223UL;
			hash = (hash ^ u32[j]) * 16777619UL;
			/* u16 x u16 -> u32 and i16 x i16 -> i32 */
			wide += (uint32_t) u16[i] * u16[j];
			acc_i32 += (int32_t) i16[i] * i16[j];
			acc_i32 -= (int32_t) i16[j] * i16[i];
			/* i32 x i32 with small magnitudes (|product| < 2^31) */
			acc_i32 += (i32[i] * i32[j]) >> 10;
			acc_i32 += i32[j] * -3;
		}
		for (i = 0; i < N; i++)
			u16[i] = (uint16_t) (u16[i] + r);
	}

	sink = acc_u32 + wide + hash + (uint32_t) acc_i32;
	return 0;
}
