/* micro-float-div: single-precision divisions by variables and by constants that are not
 * powers of two (GCC keeps x / 3.0f as a division), with mixed signs and magnitudes.
 * On AVR each is a call to the soft-float divide (__divsf3), the slowest of the four
 * basic float operations.  */
#include <stdint.h>

#define N 8
#define ROUNDS 15

volatile float in_f[N] = {1.5f, -2.25f, 1000.0f, 0.001f, -37.75f, 3.14159f, 65536.0f, -0.5f};
volatile uint32_t sink;

static uint32_t bits(float f)
{
	union {
		float f;
		uint32_t u;
	} pun;

	pun.f = f;
	return pun.u;
}

int main(void)
{
	float v[N];
	float q = 1.0f, mean = 0.0f, ratio = 0.0f;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++)
		v[i] = in_f[i];

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < N; i++) {
			uint8_t j = (uint8_t) (N - 1 - i);

			ratio = v[i] / v[j];
			q = q / 3.0f + ratio;
			mean = mean + (v[i] - mean) / 7.0f;
			v[i] = v[i] / -1.25f;
			if (v[i] < 1.0e-3f && v[i] > -1.0e-3f)
				v[i] = 1000.0f / (v[i] + 2.0f);
		}
	}

	sink = bits(q) ^ bits(mean) ^ bits(ratio) ^ bits(v[2]);
	return 0;
}
