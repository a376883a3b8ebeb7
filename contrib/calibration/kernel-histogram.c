/* kernel-histogram: a 16-bin histogram of 256 u8 samples (bin = value >> 4), then the
 * mode, the running cumulative distribution, the median bin and a mean with its
 * rounding, as in signal-quality monitoring.  Indexed read-modify-write increments of
 * u16 counters (data-dependent addresses), a scan for a maximum, one division.  */
#include <stdint.h>

#define SAMPLES 256
#define BINS 16
#define PASSES 3

volatile uint8_t in_seed = 0x1d;
volatile uint32_t sink;

int main(void)
{
	uint8_t samples[SAMPLES];
	uint16_t hist[BINS], cdf[BINS];
	uint8_t seed = in_seed;
	uint32_t acc = 0;
	uint16_t i;
	uint8_t b, pass;

	for (i = 0; i < SAMPLES; i++) {
		uint8_t a, c;

		seed = (uint8_t) (seed * 45 + 7);
		a = seed;
		seed = (uint8_t) (seed * 45 + 7);
		c = seed;
		samples[i] = (uint8_t) ((a >> 1) + (c >> 2));	/* skewed, not uniform */
	}

	for (pass = 0; pass < PASSES; pass++) {
		uint32_t total = 0;
		uint16_t running = 0, best = 0;
		uint8_t mode = 0, median = 0;

		for (b = 0; b < BINS; b++)
			hist[b] = 0;
		for (i = 0; i < SAMPLES; i++) {
			hist[samples[i] >> 4]++;
			total += samples[i];
		}
		for (b = 0; b < BINS; b++) {
			if (hist[b] > best) {
				best = hist[b];
				mode = b;
			}
			running = (uint16_t) (running + hist[b]);
			cdf[b] = running;
			if (running < SAMPLES / 2)
				median = (uint8_t) (b + 1);
		}
		acc += mode + ((uint32_t) median << 8) + ((uint32_t) cdf[BINS / 2] << 16);
		acc += (total + SAMPLES / 2) / SAMPLES;
		for (i = pass; i < SAMPLES; i += 3)
			samples[i] = (uint8_t) (samples[i] + 40);
	}

	sink = acc;
	return 0;
}
