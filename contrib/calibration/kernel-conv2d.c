/* kernel-conv2d: a 3x3 smoothing filter over a 12x12 image, the result transposed back,
 * and a lookup in a 2-D table indexed by pixel and column bits: two-dimensional subscripts
 * of local and global arrays, as in image, sensor-grid and table-driven firmware code.  */
#include <stdint.h>

#define W 12
#define H 12
#define PASSES 4

volatile uint8_t in_seed = 0x5a;
volatile uint32_t sink;

static const uint8_t kern[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
uint16_t table[4][8];

int main(void)
{
	uint8_t img[H][W];
	uint8_t out[H][W];
	uint8_t seed = in_seed;
	uint32_t acc = 0;
	uint8_t x, y, pass;

	for (y = 0; y < 4; y++)
		for (x = 0; x < 8; x++)
			table[y][x] = (uint16_t) ((uint16_t) (y * 8 + x) * 3u);
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++) {
			seed = (uint8_t) (seed * 29 + 7);
			img[y][x] = seed;
			out[y][x] = 0;
		}
	for (pass = 0; pass < PASSES; pass++) {
		for (y = 1; y < H - 1; y++)
			for (x = 1; x < W - 1; x++) {
				uint16_t s = 0;
				uint8_t i, j;

				for (i = 0; i < 3; i++)
					for (j = 0; j < 3; j++)
						s = (uint16_t) (s + (uint16_t) img[y + i - 1][x + j - 1] * kern[i][j]);
				out[y][x] = (uint8_t) (s >> 4);
			}
		for (y = 1; y < H - 1; y++)
			for (x = 1; x < W - 1; x++) {
				img[x][y] = out[y][x];
				acc += table[out[y][x] & 3][x & 7];
			}
	}

	sink = acc;
	return 0;
}
