/* micro-compare-branch: the six comparisons (== != < <= > >=) at every width, signed and
 * unsigned, against constants and variables, each deciding an if/else.  The data make
 * every branch go both ways, so taken and not-taken conditional branches are both in the
 * fitted average.  */
#include <stdint.h>

#define N 16
#define ROUNDS 10

volatile uint8_t in_u8[N] = {3, 200, 17, 255, 0, 91, 128, 44, 9, 100, 101, 7, 250, 60, 61, 128};
volatile int16_t in_i16[N] = {-1000, 32767, -32768, 5, 1200, -7, 0, 400,
			      -1, 1, 99, -99, 1000, -1000, 2, 3};
volatile uint32_t in_u32[N] = {1, 0xffffffffUL, 70000UL, 0x80000000UL, 123456789UL, 12,
			       4000000000UL, 65537UL, 65536UL, 65535UL, 0, 7, 70001UL,
			       69999UL, 1000000UL, 2};
volatile uint32_t sink;

int main(void)
{
	uint8_t u8[N];
	int8_t i8[N];
	uint16_t u16[N];
	int16_t i16[N];
	uint32_t u32[N];
	int32_t i32[N];
	uint16_t hits = 0, misses = 0;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++) {
		u8[i] = in_u8[i];
		i8[i] = (int8_t) (in_u8[i] ^ 0x80);
		i16[i] = in_i16[i];
		u16[i] = (uint16_t) in_i16[i];
		u32[i] = in_u32[i];
		i32[i] = (int32_t) (in_u32[i] >> 1) - 100000L;
	}

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < N; i++) {
			uint8_t j = (uint8_t) ((i + r) & (N - 1));

			/* 8-bit */
			if (u8[i] < u8[j])
				hits++;
			else
				misses++;
			if (u8[i] == 128)
				hits++;
			if (i8[i] >= i8[j])
				hits += 2;
			else
				misses += 2;
			if (i8[i] > -20)
				hits++;
			/* 16-bit */
			if (u16[i] <= u16[j])
				hits++;
			else
				misses++;
			if (u16[i] != 5)
				hits++;
			if (i16[i] > i16[j])
				hits++;
			else
				misses++;
			if (i16[i] < 0)
				misses += 3;
			/* 32-bit */
			if (u32[i] >= u32[j])
				hits++;
			else
				misses++;
			if (u32[i] > 65536UL)
				hits++;
			if (i32[i] <= i32[j])
				hits++;
			else
				misses++;
			if (i32[i] == i32[j])
				hits += 5;
			if (i32[i] < 0)
				misses++;
		}
	}

	sink = (uint32_t) hits << 16 | misses;
	return 0;
}
