/* fir.c — a 16-tap FIR low-pass filter over 64 samples in Q15 fixed point,
 * the second example program of the seed measurements, written for roi.
 *
 * Counts by hand: output n sums the taps k <= n, so the inner body (one
 * multiply-accumulate) runs min(n + 1, 16) times: 1 + 2 + ... + 15 for
 * n = 0..14, then 16 for each of the 49 outputs n = 15..63: 120 + 784 = 904
 * multiplies.  The tap loop's two tests (k < TAPS, k <= n) run 2(n + 2)
 * times for n <= 14 and 17 + 16 = 33 times for n >= 15: 270 + 1617 = 1887;
 * with the 65 tests of each of the two sample loops, 2017 comparisons.  */
#include <stdint.h>

#define TAPS 16
#define SAMPLES 64

/* A symmetric low-pass kernel (Q15, sums to about 1.0).  */
static const int16_t coeff[TAPS] = {
	-112, -232, -104, 640, 2048, 3712, 4960, 5472,
	5472, 4960, 3712, 2048, 640, -104, -232, -112
};

int16_t input[SAMPLES];
volatile int16_t output[SAMPLES];

static void fir(void)
{
	for (int n = 0; n < SAMPLES; n++) {
		int32_t acc = 0;
		for (int k = 0; k < TAPS && k <= n; k++)
			acc += (int32_t) coeff[k] * input[n - k];
		output[n] = (int16_t) (acc >> 15);
	}
}

int main(void)
{
	/* A square wave of period 8 with some noise, made without a library.  */
	for (int i = 0; i < SAMPLES; i++)
		input[i] = (int16_t) ((i & 4 ? 8000 : -8000) + ((i * 37) & 255) - 128);
	fir();
	return 0;
}
