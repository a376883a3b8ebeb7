/* kernel-q31-mac: Q31 fixed-point DSP with 64-bit accumulators: an 8-tap FIR over 32 samples
 * (acc >> 31), a Q31 gain stage, a correlation (>> 31) and an energy (>> 16), each saturated
 * to int32 and tracked with i32 compares.  The int64 multiply-accumulate of 32-bit audio and
 * sensor code: libgcc __muldi3 and 64-bit adds, shifts and 32<->64-bit conversions.  */
#include <stdint.h>

#define TAPS 8
#define SAMPLES 32
#define PASSES 3

volatile int32_t in_amplitude = 0x30000000L;	/* 0.375 in Q31 */
volatile uint32_t in_seed = 0x2545f491UL;
volatile int32_t in_gain = 0x68000000L;		/* 0.8125 in Q31 */
volatile uint32_t sink;

/* a low-pass with a DC gain of about 1.44 in Q31, so that the FIR saturates at times */
static const int32_t coeff[TAPS] = {
	-0x02000000L, 0x0a000000L, 0x20000000L, 0x34000000L,
	0x34000000L, 0x20000000L, 0x0a000000L, -0x02000000L
};

static int32_t sat32(int64_t x)
{
	if (x > INT32_MAX)
		return INT32_MAX;
	if (x < INT32_MIN)
		return INT32_MIN;
	return (int32_t) x;
}

/* Q31 x Q31 -> Q31 with rounding; -1 x -1 saturates */
static int32_t mul_q31(int32_t a, int32_t b)
{
	int64_t p = (int64_t) a * b + (1LL << 30);

	return sat32(p >> 31);
}

int main(void)
{
	int32_t x[SAMPLES], y[SAMPLES];
	int32_t amp = in_amplitude, gain = in_gain;
	uint32_t seed = in_seed, acc_out = 0;
	int32_t peak = INT32_MIN, trough = INT32_MAX;
	uint16_t clipped = 0;
	uint8_t pass, n, k;

	for (pass = 0; pass < PASSES; pass++) {
		/* a square wave of growing amplitude plus noise in [-2^28, 2^28) */
		if (pass > 0)
			amp += amp >> 1;
		for (n = 0; n < SAMPLES; n++) {
			seed = seed * 1664525UL + 1013904223UL;
			x[n] = (int32_t) (seed >> 3) - 0x10000000L;
			x[n] += (n & 8) ? amp : -amp;
		}

		/* FIR: 64-bit accumulator, Q31 result, saturated */
		for (n = 0; n < SAMPLES; n++) {
			int64_t acc = 1LL << 30;	/* rounding */

			for (k = 0; k < TAPS && k <= n; k++)
				acc += (int64_t) coeff[k] * x[n - k];
			y[n] = sat32(acc >> 31);
			if (y[n] == INT32_MAX || y[n] == INT32_MIN)
				clipped++;
		}

		/* gain stage and peak tracking in i32 */
		for (n = 0; n < SAMPLES; n++) {
			int32_t v = mul_q31(y[n], gain);

			if (v > peak)
				peak = v;
			if (v < trough)
				trough = v;
			y[n] = v;
		}

		/* correlation of input and output (acc >> 31) and output energy (acc >> 16),
		 * both saturated */
		{
			int64_t dot = 0, energy = 0;
			int32_t r, e;

			for (n = 0; n < SAMPLES; n++) {
				int32_t yq = y[n] >> 9;

				dot += (int64_t) (x[n] >> 5) * y[n];
				energy += (int64_t) yq * yq;
			}
			r = sat32(dot >> 31);
			e = sat32(energy >> 16);
			if (e == INT32_MAX)
				clipped += 100;
			acc_out = (acc_out << 3 | acc_out >> 29) ^ (uint32_t) r ^ (uint32_t) e;
		}
		gain = -gain;

		for (n = 0; n < SAMPLES; n++)
			acc_out = (acc_out << 1 | acc_out >> 31) ^ (uint32_t) y[n];
	}

	sink = acc_out ^ (uint32_t) peak ^ ((uint32_t) trough << 1) ^ clipped;
	return 0;
}
