/* micro-bool: short-circuit && and ||, logical !, bool variables and the ternary ?:
 * over u8/i16/u32 conditions, with data that make each operand decide the result some
 * of the time.  These compile to chains of compare-and-branch or to flag arithmetic,
 * and are everywhere in firmware's guard conditions.  */
#include <stdint.h>
#include <stdbool.h>

#define N 16
#define ROUNDS 20

volatile uint8_t in_u8[N] = {3, 200, 17, 255, 0, 91, 128, 44, 9, 100, 101, 7, 250, 60, 61, 127};
volatile uint32_t sink;

int main(void)
{
	uint8_t u8[N];
	int16_t i16[N];
	uint32_t u32[N];
	bool ready = false, armed = true;
	uint16_t yes = 0, no = 0;
	uint32_t acc = 0;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++) {
		u8[i] = in_u8[i];
		i16[i] = (int16_t) (in_u8[i] * 3 - 300);
		u32[i] = (uint32_t) in_u8[i] << 12;
	}

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < N; i++) {
			uint8_t j = (uint8_t) ((i + r) & (N - 1));
			bool big = u8[i] > 100;
			bool neg = i16[j] < 0;
			bool both, either;

			both = big && !neg;
			either = big || u32[j] > 300000UL;
			if (both)
				yes++;
			if (either && !ready)
				no++;
			if ((u8[i] & 1) || (i16[i] > 50 && u32[i] != 0))
				yes = (uint16_t) (yes + 2);
			ready = (ready != neg) || (armed && u8[j] == 0);
			armed = !armed;
			acc += big ? u32[i] : (uint32_t) u8[j];
			acc += neg ? 1u : 0u;
			u8[i] = (uint8_t) (both ? u8[i] + 7 : u8[i] - 3);
			no = (uint16_t) (no + (either ^ neg));
		}
	}

	sink = acc + ((uint32_t) yes << 16) + no + ready + armed;
	return 0;
}
