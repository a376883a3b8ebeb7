/* kernel-moving-average: smoothing a 12-bit ADC-like signal three ways: a 16-sample
 * boxcar with a running u32 sum and a circular history, an exponential moving average in
 * Q8 fixed point, and a median-of-3 spike filter in front of both.  The per-sample work
 * of sensor firmware: array ring indexing, add/subtract, shifts, compares.  */
#include <stdint.h>

#define WINDOW 16
#define SAMPLES 300

volatile uint16_t in_offset = 2048;
volatile uint32_t sink;

static uint16_t median3(uint16_t a, uint16_t b, uint16_t c)
{
	if (a > b) {
		uint16_t t = a;

		a = b;
		b = t;
	}
	if (b > c)
		b = c;
	return a > b ? a : b;
}

int main(void)
{
	uint16_t history[WINDOW] = {0};
	uint16_t offset = in_offset;
	uint16_t noise = 3, prev1 = 0, prev2 = 0;
	uint32_t box_sum = 0;
	uint32_t ema = (uint32_t) offset << 8;	/* Q8 */
	uint32_t acc = 0;
	uint8_t pos = 0;
	uint16_t n;

	for (n = 0; n < SAMPLES; n++) {
		uint16_t raw, clean, box, smooth;

		noise = (uint16_t) (noise * 75u + 74u);
		raw = (uint16_t) (offset + (n & 64 ? 300 : 0) + (noise & 63));
		if ((noise & 0x700) == 0)
			raw = 4095;			/* a spike */
		raw &= 0x0fff;

		clean = median3(raw, prev1, prev2);
		prev2 = prev1;
		prev1 = raw;

		box_sum = box_sum - history[pos] + clean;
		history[pos] = clean;
		pos = (uint8_t) ((pos + 1) & (WINDOW - 1));
		box = (uint16_t) (box_sum / WINDOW);

		ema = ema - (ema >> 3) + ((uint32_t) clean << 5);	/* alpha = 1/8 */
		smooth = (uint16_t) (ema >> 8);

		acc += box ^ smooth;
	}

	sink = acc;
	return 0;
}
