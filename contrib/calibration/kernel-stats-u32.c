/* kernel-stats-u32: running statistics over a 64-sample u16 buffer of 12-bit readings:
 * u32 sum and sum of squares, mean and variance by division by a run-time count, a
 * bit-by-bit u32 square root, a scaled ratio (u32 / and %) and min/max tracking, over passes
 * with changing data.  The ADC-logging code of sensor firmware: u32 div, mod, mul, compares.  */
#include <stdint.h>

#define SAMPLES 64
#define PASSES 4

volatile uint16_t in_count = SAMPLES;
volatile uint16_t in_seed = 0xace1u;
volatile uint16_t in_scale = 1000;		/* coefficient of variation in 1/1000 */
volatile uint32_t sink;

static uint32_t isqrt32(uint32_t n)
{
	uint32_t root = 0, bit = 1UL << 30;

	while (bit > n)
		bit >>= 2;
	while (bit) {
		if (n >= root + bit) {
			n -= root + bit;
			root = (root >> 1) + bit;
		} else {
			root >>= 1;
		}
		bit >>= 2;
	}
	return root;
}

int main(void)
{
	uint16_t buf[SAMPLES];
	uint16_t lfsr = in_seed, scale = in_scale;
	uint16_t count = in_count;
	uint32_t acc = 0;
	uint8_t pass, i;

	for (pass = 0; pass < PASSES; pass++) {
		uint32_t sum = 0, sumsq = 0, mean, var, sd, dev_sum = 0;
		uint32_t lo = UINT32_MAX, hi = 0, dev_max = 0, norm_sum = 0;
		uint32_t ratio, frac, span, range;
		uint16_t n = (uint16_t) (count - pass * 5);	/* 64, 59, 54, 49 */
		uint16_t above = 0, rising = 0, base = (uint16_t) (300 + pass * 800);

		/* readings: a slow ramp plus LFSR noise, spread growing with the pass */
		for (i = 0; i < SAMPLES; i++) {
			lfsr = (uint16_t) ((lfsr >> 1) ^ (-(lfsr & 1u) & 0xb400u));
			buf[i] = (uint16_t) (base + i * 4 + (lfsr & (0x3ffu >> (PASSES - 1 - pass))));
		}

		/* pass 1: sums, extremes and the running mean */
		for (i = 0; i < n; i++) {
			uint32_t v = buf[i];

			sum += v;
			if (v > sum / (uint32_t) (i + 1u))
				rising++;
			sumsq += v * v;
			if (v < lo)
				lo = v;
			if (v > hi)
				hi = v;
		}
		mean = sum / n;
		var = sumsq / n - mean * mean;	/* floor(sumsq/n) >= floor(mean)^2 */
		sd = isqrt32(var);

		/* pass 2: deviations from the mean, two-pass variance, rounded min-max scaling */
		range = hi - lo + 1u;
		for (i = 0; i < n; i++) {
			uint32_t v = buf[i];
			uint32_t d = v > mean ? v - mean : mean - v;
			uint32_t d2 = d * d;
			uint32_t q = (v - lo) * scale;
			uint32_t norm = q / range, rem = q % range;

			if (rem >= range - rem)
				norm++;
			norm_sum += norm;

			dev_sum += d2;
			if (d2 > dev_max)
				dev_max = d2;
			if (v > mean + sd)
				above++;
		}
		dev_sum /= n;

		/* coefficient of variation as a rounded ratio, and the span against the mean */
		ratio = sd * scale / mean;
		frac = sd * scale % mean;
		if (frac >= mean - frac)
			ratio++;
		span = (hi - lo) * 256u / (mean + 1u);
		span += (hi - lo) * 256u % (mean + 1u) > mean / 2u ? 1u : 0u;

		acc = (acc << 5 | acc >> 27) ^ mean;
		acc += var ^ (dev_sum << 8);
		acc ^= (sd << 16) + (ratio << 4) + span;
		acc += isqrt32(dev_max) + above + lo + (hi << 12);
		acc ^= norm_sum + ((uint32_t) rising << 20);
	}

	sink = acc;
	return 0;
}
