/* kernel-fir-q15: a 16-tap low-pass FIR filter in Q15 fixed point over a block of 96
 * samples, with a 32-bit accumulator, rounding and saturation to 16 bits: the classic
 * DSP inner loop (16x16->32 multiply-accumulate) as it is written for MCUs without a DSP
 * extension.  Input is a square wave with noise, so saturation triggers at times.  */
#include <stdint.h>

#define TAPS 16
#define SAMPLES 96

volatile int16_t in_amplitude = 20000;
volatile uint32_t sink;

static const int16_t coeff[TAPS] = {
	-112, -232, -104, 640, 2048, 3712, 4960, 5472,
	5472, 4960, 3712, 2048, 640, -104, -232, -112
};

static int16_t saturate(int32_t x)
{
	if (x > 32767)
		return 32767;
	if (x < -32768)
		return -32768;
	return (int16_t) x;
}

int main(void)
{
	int16_t input[SAMPLES], output[SAMPLES];
	int16_t amp = in_amplitude;
	uint16_t noise = 1;
	uint32_t acc_out = 0;
	uint8_t n, k;

	for (n = 0; n < SAMPLES; n++) {
		noise = (uint16_t) (noise * 75u + 74u);
		input[n] = (int16_t) ((n & 8 ? amp : -amp) + (int16_t) (noise & 0x1fff) - 4096);
	}

	for (n = 0; n < SAMPLES; n++) {
		int32_t acc = 1L << 14;		/* rounding */
		int32_t y;

		for (k = 0; k < TAPS && k <= n; k++)
			acc += (int32_t) coeff[k] * input[n - k];
		y = acc >> 15;
		output[n] = saturate(y + (y >> 2));	/* gain 1.25: may saturate */
	}

	for (n = 0; n < SAMPLES; n++)
		acc_out = (acc_out << 1 | acc_out >> 31) ^ (uint16_t) output[n];
	sink = acc_out;
	return 0;
}
