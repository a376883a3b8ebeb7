/* kernel-zero-cross: a Q14 sine oscillator (a second-order resonator) with a DC offset that
 * drifts, and on its samples a zero-crossing counter, a rectified mean and a peak detector, as
 * in mains-frequency and tone detection. Exercises signed comparisons with zero on i16 and
 * i32, as branches and as values, negation, and 32-bit accumulation.  */
#include <stdint.h>
#include <stdbool.h>

#define N 400

volatile int16_t in_coef = 31164;	/* 2 cos(2 pi / 23) in Q14 */
volatile int16_t in_amp = 9000;
volatile uint32_t sink;

int main(void)
{
	int16_t coef = in_coef;
	int16_t y1 = 0, y2 = (int16_t) -in_amp;
	int16_t offset = -1500;
	bool was_neg = false;
	uint16_t crossings = 0, peaks = 0, i;
	uint32_t rect = 0;
	int32_t energy_sign = 0;
	int16_t prev = 0, prev_slope = 0;

	for (i = 0; i < N; i++) {
		int32_t p = (int32_t) coef * y1;
		int16_t y = (int16_t) ((p >> 14) - y2);
		int16_t s, slope;
		bool neg;

		y2 = y1;
		y1 = y;
		if ((i & 15) == 0)
			offset = (int16_t) (offset + 190);
		s = (int16_t) ((y >> 1) + offset);

		neg = s < 0;
		if (neg != was_neg)
			crossings++;
		was_neg = neg;
		rect += (uint16_t) (s < 0 ? -s : s);

		slope = (int16_t) (s - prev);
		if (prev_slope >= 0 && slope < 0)
			peaks++;
		prev_slope = slope;
		prev = s;

		if ((int32_t) s * y >= 0)
			energy_sign++;
		else
			energy_sign--;
	}
	sink = ((uint32_t) crossings << 20) ^ ((uint32_t) peaks << 12) ^ rect ^ (uint32_t) energy_sign;
	return 0;
}
