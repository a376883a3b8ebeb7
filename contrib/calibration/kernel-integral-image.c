/* kernel-integral-image: a summed-area table of an 8x8 8-bit image in a two-dimensional u32
 * array, then 2x2 block sums, box means and a block-contrast map read back from it at
 * run-time corners, as in sensor-array thresholding and feature detection.  Two-subscript
 * u32, u16 and u8 loads and stores, global and local, rows of power-of-two and other sizes. */
#include <stdint.h>

#define N 8
#define ROUNDS 4
#define BOXES 15

volatile uint8_t in_seed = 0x5d;
volatile uint32_t sink;

static uint8_t img[N][N];
static uint32_t sat[N + 1][N + 1];	/* sat[y][x]: the sum of img[0..y-1][0..x-1] */
static uint32_t blocks[N / 2][N / 2];	/* the 2x2 blocks' sums */

/* the sum of img[y0..y1-1][x0..x1-1] */
static uint32_t box_sum(uint8_t y0, uint8_t x0, uint8_t y1, uint8_t x1)
{
	return sat[y1][x1] - sat[y0][x1] - sat[y1][x0] + sat[y0][x0];
}

int main(void)
{
	uint16_t means[3][5];		/* the box means, three rows of five */
	uint32_t contrast[N / 2][N / 2 - 1];	/* neighbouring blocks' differences */
	uint8_t seed = in_seed;
	uint32_t acc = 0;
	uint8_t round, x, y, k;

	for (round = 0; round < ROUNDS; round++) {
		/* a new frame: noise over a gradient that moves each round */
		for (y = 0; y < N; y++)
			for (x = 0; x < N; x++) {
				seed = (uint8_t) (seed * 29 + 7);
				img[y][x] = (uint8_t) ((seed >> 2) + ((x + round) & 7) * 24);
			}

		/* the table: each entry the one above plus the row's running sum */
		for (x = 0; x <= N; x++)
			sat[0][x] = 0;
		for (y = 1; y <= N; y++) {
			uint32_t row = 0;

			sat[y][0] = 0;
			for (x = 1; x <= N; x++) {
				row += img[y - 1][x - 1];
				sat[y][x] = sat[y - 1][x] + row;
			}
		}

		/* 2x2 block sums from four corners each */
		for (y = 0; y < N / 2; y++)
			for (x = 0; x < N / 2; x++)
				blocks[y][x] = box_sum((uint8_t) (2 * y), (uint8_t) (2 * x),
						       (uint8_t) (2 * y + 2), (uint8_t) (2 * x + 2));

		/* boxes at pseudo-random corners: their means, rounded */
		for (k = 0; k < BOXES; k++) {
			uint8_t y0, x0, y1, x1;
			uint16_t area;

			seed = (uint8_t) (seed * 29 + 7);
			y0 = seed & 3;
			x0 = (seed >> 2) & 3;
			y1 = (uint8_t) (y0 + 1 + ((seed >> 4) & 3));
			x1 = (uint8_t) (x0 + 2 + (seed >> 6));
			area = (uint16_t) ((y1 - y0) * (x1 - x0));
			means[k / 5][k % 5] =
				(uint16_t) ((box_sum(y0, x0, y1, x1) + area / 2) / area);
		}

		/* contrast between horizontally neighbouring blocks */
		for (y = 0; y < N / 2; y++)
			for (x = 0; x < N / 2 - 1; x++) {
				uint32_t a = blocks[y][x], b = blocks[y][x + 1];

				contrast[y][x] = a > b ? a - b : b - a;
			}

		for (y = 0; y < 3; y++)
			for (x = 0; x < 5; x++)
				acc += (uint32_t) means[y][x] << (x & 3);
		for (y = 0; y < N / 2; y++)
			for (x = 0; x < N / 2 - 1; x++)
				if (contrast[y][x] > 64)
					acc ^= contrast[y][x] + y;
		acc += sat[N][N] + blocks[round & 3][(round + 1) & 3];
	}

	sink = acc;
	return 0;
}
