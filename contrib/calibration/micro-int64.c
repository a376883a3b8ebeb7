/* micro-int64: a few 64-bit operations (add, subtract, xor, constant and variable shifts,
 * compare, widening from 32 bits), as in timestamps and long accumulators.  On AVR even
 * adds and compares go through libgcc (__adddi3, __subdi3, __cmpdi2, __ashldi3,
 * __lshrdi3), so 64-bit code is slow; the program stays short to keep its cycles in range.  */
#include <stdint.h>

#define N 8
#define ROUNDS 25

volatile uint32_t in_u32[N] = {1, 0xffffffffUL, 70000UL, 0x80000000UL,
			       123456789UL, 12, 4000000000UL, 65537UL};
volatile uint32_t sink;

int main(void)
{
	uint32_t u32[N];
	uint64_t total = 0, stamp = 0x0123456789abcdefULL;
	int64_t delta = 0;
	uint16_t later = 0;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++)
		u32[i] = in_u32[i];

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < N; i++) {
			uint64_t wide = u32[i];			/* zero-extend 32 -> 64 */
			uint8_t s = (uint8_t) ((i * 7 + r) & 63);

			total += wide;
			stamp ^= total << 3;
			stamp += stamp >> 17;
			delta -= (int64_t) (int32_t) u32[i];	/* sign-extend 32 -> 64 */
			if (stamp > total)
				later++;
			total ^= stamp >> s;
		}
	}

	sink = (uint32_t) total ^ (uint32_t) (stamp >> 32) ^ (uint32_t) delta ^ later;
	return 0;
}
