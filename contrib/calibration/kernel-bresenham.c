/* kernel-bresenham: integer line drawing (Bresenham's error term) into a 32x32 1-bit frame
 * buffer, as display drivers for small LCDs do, then a popcount of the lit pixels. Exercises
 * signed error terms tested against zero (the sign bit), bit set by a run-time shift and the
 * byte addressing of a packed bitmap.  */
#include <stdint.h>
#include <string.h>

#define W 32
#define H 32

volatile uint8_t in_seed = 0x3c;
volatile uint32_t sink;

static uint8_t fb[W * H / 8];

static void plot(uint8_t x, uint8_t y)
{
	uint16_t bit = (uint16_t) ((uint16_t) y * W + x);

	fb[bit >> 3] |= (uint8_t) (1u << (bit & 7u));
}

/* the midpoint form: one decision variable per octant pair, whose sign says when the minor
 * axis steps */
static void line(uint8_t x0, uint8_t y0, uint8_t x1, uint8_t y1)
{
	int8_t sx = x0 < x1 ? 1 : -1;
	int8_t sy = y0 < y1 ? 1 : -1;
	int16_t dx = (int16_t) (x1 > x0 ? x1 - x0 : x0 - x1);
	int16_t dy = (int16_t) (y1 > y0 ? y1 - y0 : y0 - y1);
	int16_t d, n;

	if (dx >= dy) {
		d = (int16_t) (2 * dy - dx);
		for (n = dx; n >= 0; n--) {
			plot(x0, y0);
			if (d >= 0) {
				y0 = (uint8_t) (y0 + sy);
				d = (int16_t) (d - 2 * dx);
			}
			d = (int16_t) (d + 2 * dy);
			x0 = (uint8_t) (x0 + sx);
		}
	} else {
		d = (int16_t) (2 * dx - dy);
		for (n = dy; n >= 0; n--) {
			plot(x0, y0);
			if (d < 0) {
				d = (int16_t) (d + 2 * dx);
			} else {
				x0 = (uint8_t) (x0 + sx);
				d = (int16_t) (d + 2 * dx - 2 * dy);
			}
			y0 = (uint8_t) (y0 + sy);
		}
	}
}

int main(void)
{
	uint8_t seed = in_seed;
	uint32_t acc = 0;
	uint8_t i, j;

	for (i = 0; i < 24; i++) {
		uint8_t c[4];

		memset(fb, 0, sizeof fb);
		for (j = 0; j < 4; j++) {
			seed = (uint8_t) (seed * 37 + 11);
			c[j] = (uint8_t) (seed & (W - 1));
		}
		line(c[0], c[1], c[2], c[3]);
		line(c[2], c[3], (uint8_t) (W - 1 - c[0]), c[1]);
		line(0, c[i & 3], W - 1, (uint8_t) (H - 1 - c[i & 3]));
		for (j = 0; j < sizeof fb; j++) {
			uint8_t b = fb[j];

			while (b) {
				b &= (uint8_t) (b - 1);
				acc++;
			}
		}
		acc = (acc << 3) ^ (acc >> 29) ^ fb[(uint8_t) (c[0] * 4 + 1)];
	}
	sink = acc;
	return 0;
}
