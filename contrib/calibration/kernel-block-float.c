/* kernel-block-float: block floating point as a fixed-point FFT or codec keeps it: for each
 * block of 16 samples find the peak magnitude, the shift that normalises it, scale the
 * block up by that run-time shift, sum products in 32 bits and scale back down by another.
 * Shifts of i16, u16, i32 and u32 by amounts known only at run time.  */
#include <stdint.h>

#define BLOCK 16
#define BLOCKS 12

volatile uint16_t in_seed = 0x1d2b;
volatile uint32_t sink;

static uint8_t headroom(uint16_t peak)
{
	uint8_t n = 0;

	if (peak == 0)
		return 14;
	while (peak < 0x4000u) {
		peak <<= 1;
		n++;
	}
	return n;
}

int main(void)
{
	int16_t x[BLOCK];
	uint16_t seed = in_seed;
	uint32_t acc = 0;
	uint8_t blk, i;

	for (blk = 0; blk < BLOCKS; blk++) {
		uint8_t range = (uint8_t) (blk % 12u);	/* blocks from loud to quiet */
		uint16_t peak = 0;
		uint8_t sh, down;
		int32_t sum = 0;
		uint16_t mag;

		for (i = 0; i < BLOCK; i++) {
			seed = (uint16_t) (seed * 25173u + 13849u);
			x[i] = (int16_t) ((int16_t) seed >> range);
			mag = (uint16_t) (x[i] < 0 ? -(int32_t) x[i] : x[i]);
			if (mag > peak)
				peak = mag;
		}
		sh = headroom(peak);
		for (i = 0; i < BLOCK; i++)
			x[i] = (int16_t) (x[i] * (1 << sh));	/* up by sh, no overflow */
		for (i = 0; i < BLOCK; i++)
			sum += ((int32_t) x[i] * x[(i + 1) & (BLOCK - 1)]) >> (uint8_t) (sh + 4u);
		down = (uint8_t) (sh + (blk & 3u));
		acc += (uint32_t) (sum >> down);
		acc ^= (uint32_t) peak << (blk & 15u);
		acc += (uint16_t) peak >> (sh & 7u);
	}

	sink = acc;
	return 0;
}
