/* micro-float-mul: single-precision multiplications by constants and by variables,
 * with mixed signs and magnitudes, on locals and array elements; products are kept in
 * range by pairing each growth with a shrink.  On AVR each is a call to the soft-float
 * multiply (__mulsf3).  */
#include <stdint.h>

#define N 8
#define ROUNDS 25

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
	float v[N], w[N];
	float prod = 1.0f, scale = 1.0f, energy = 0.0f;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++) {
		v[i] = in_f[i];
		w[i] = 1.0f / (float) (i + 2);
	}

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < N; i++) {
			uint8_t j = (uint8_t) (N - 1 - i);

			prod = prod * v[i];
			prod = prod * w[j] * 1.5f;
			if (prod > 1.0e6f || prod < -1.0e6f)
				prod = prod * 1.0e-6f;
			else if (prod < 1.0e-6f && prod > -1.0e-6f)
				prod = 1.0f;
			scale = scale * 1.0001f;
			energy = energy * 0.5f + v[i] * v[i];
			w[j] = w[j] * -0.999f;
		}
		v[r & (N - 1)] = v[r & (N - 1)] * scale;
	}

	sink = bits(prod) ^ bits(scale) ^ bits(energy) ^ bits(w[1]);
	return 0;
}
