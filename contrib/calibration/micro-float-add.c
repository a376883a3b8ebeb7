/* micro-float-add: single-precision additions and subtractions with operands of mixed
 * signs and magnitudes (so the mantissa alignment differs), constants and variables,
 * locals and array elements.  AVR has no FPU: each is a call to the soft-float add
 * (__addsf3/__subsf3), whose cost the corpus must measure.  */
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
	float v[N];
	float acc = 0.0f, drift = 1.0f, diff = 0.0f;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++)
		v[i] = in_f[i];

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < N; i++) {
			uint8_t j = (uint8_t) (N - 1 - i);

			acc = acc + v[i];
			acc = acc - v[j];
			drift = drift + 0.125f;
			diff = v[i] - drift;
			v[i] = v[i] + 0.5f;
			acc = acc + diff;
		}
		acc = acc - 100.0f;
		drift = drift - 0.75f;
	}

	sink = bits(acc) ^ bits(drift) ^ bits(diff) ^ bits(v[3]);
	return 0;
}
