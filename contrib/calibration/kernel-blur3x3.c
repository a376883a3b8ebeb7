/* kernel-blur3x3: a weighted 3x3 smoothing (1 2 1 / 2 4 2 / 1 2 1) and a 3x3 box mean over a
 * 12x12 8-bit image in two-dimensional arrays, borders clamped, as in sensor-array and small
 * camera preprocessing. Exercises two-subscript loads and stores, u16 sums of u8 pixels,
 * multiplies by small weights and a division by 9.  */
#include <stdint.h>

#define W 12
#define H 12

volatile uint8_t in_seed = 0x41;
volatile uint32_t sink;

static const uint8_t weight[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};

static uint8_t clamp_index(int8_t v, uint8_t n)
{
	return (uint8_t) (v < 0 ? 0 : v >= (int8_t) n ? n - 1 : v);
}

int main(void)
{
	uint8_t img[H][W], out[H][W];
	uint8_t seed = in_seed;
	uint32_t acc = 0;
	uint8_t x, y, pass;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++) {
			seed = (uint8_t) (seed * 29 + 17);
			img[y][x] = (uint8_t) ((seed >> 1) + (x * 8) + (y & 3) * 16);
		}
	for (pass = 0; pass < 2; pass++) {
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++) {
				uint16_t sum = 0;
				int8_t ky, kx;

				for (ky = -1; ky <= 1; ky++)
					for (kx = -1; kx <= 1; kx++) {
						uint8_t yy = clamp_index((int8_t) (y + ky), H);
						uint8_t xx = clamp_index((int8_t) (x + kx), W);

						sum = (uint16_t) (sum + (uint16_t) img[yy][xx] * weight[ky + 1][kx + 1]);
					}
				out[y][x] = (uint8_t) (sum >> 4);
			}
		for (y = 1; y < H - 1; y++)
			for (x = 1; x < W - 1; x++) {
				uint16_t box = (uint16_t) (out[y - 1][x - 1] + out[y - 1][x] + out[y - 1][x + 1]);

				box = (uint16_t) (box + out[y][x - 1] + out[y][x] + out[y][x + 1]);
				box = (uint16_t) (box + out[y + 1][x - 1] + out[y + 1][x] + out[y + 1][x + 1]);
				img[y][x] = (uint8_t) (box / 9u);
			}
	}
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			acc = (acc << 1) + (acc >> 31) + img[y][x];
	sink = acc;
	return 0;
}
