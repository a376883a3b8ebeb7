/* kernel-iir-float: two cascaded biquad low-pass sections (direct form I) in single
 * precision over 48 samples of a noisy step, as in smoothing a sensor on an MCU with
 * no FPU; the output is scaled back to integers.  Soft-float add and multiply in
 * context, with loads and stores of the filter state.  */
#include <stdint.h>

#define SAMPLES 48
#define SECTIONS 2

volatile int16_t in_level = 800;
volatile uint32_t sink;

struct biquad {
	float b0, b1, b2, a1, a2;
	float x1, x2, y1, y2;
};

static float biquad_step(struct biquad *f, float x)
{
	float y = f->b0 * x + f->b1 * f->x1 + f->b2 * f->x2 - f->a1 * f->y1 - f->a2 * f->y2;

	f->x2 = f->x1;
	f->x1 = x;
	f->y2 = f->y1;
	f->y1 = y;
	return y;
}

int main(void)
{
	/* Butterworth low-pass, cut-off at 0.1 of the sample rate */
	struct biquad bank[SECTIONS] = {
		{0.0674553f, 0.1349106f, 0.0674553f, -1.1429805f, 0.4128016f, 0, 0, 0, 0},
		{0.0674553f, 0.1349106f, 0.0674553f, -1.1429805f, 0.4128016f, 0, 0, 0, 0},
	};
	int16_t level = in_level;
	uint16_t noise = 7;
	uint32_t acc = 0;
	uint8_t n, s;

	for (n = 0; n < SAMPLES; n++) {
		float x;

		noise = (uint16_t) (noise * 75u + 74u);
		x = (float) ((n < 8 ? 0 : level) + (int16_t) (noise & 0xff) - 128);
		for (s = 0; s < SECTIONS; s++)
			x = biquad_step(&bank[s], x);
		acc += (uint16_t) (int16_t) (x * 4.0f);
	}

	sink = acc;
	return 0;
}
