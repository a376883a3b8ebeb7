/* kernel-table-interp: a thermistor-style calibration table (32 ascending u16 ADC points with
 * i16 temperatures) searched by bisection with a signed midpoint and interpolated linearly in
 * fixed point, for 300 readings, plus the inverse lookup; as in sensor linearisation.
 * Exercises equality and ordered u16 compares, signed division by 2 and 32-bit products.  */
#include <stdint.h>

#define NPTS 32
#define READINGS 300

volatile uint16_t in_start = 137;
volatile uint32_t sink;

static uint16_t adc[NPTS];
static int16_t temp[NPTS];

/* the index of the last point <= v (0 if below the table) */
static int16_t find(uint16_t v)
{
	int16_t lo = 0, hi = NPTS - 1;

	if (v <= adc[0])
		return 0;
	while (lo < hi) {
		int16_t mid = (int16_t) ((lo + hi + 1) / 2);

		if (adc[mid] == v)
			return mid;
		if (adc[mid] < v)
			lo = mid;
		else
			hi = (int16_t) (mid - 1);
	}
	return lo;
}

static int16_t interp(uint16_t v)
{
	int16_t i = find(v);
	uint16_t span, off;

	if (i >= NPTS - 1)
		return temp[NPTS - 1];
	if (v <= adc[i])
		return temp[i];
	span = (uint16_t) (adc[i + 1] - adc[i]);
	off = (uint16_t) (v - adc[i]);
	return (int16_t) (temp[i] + (int16_t) (((int32_t) (temp[i + 1] - temp[i]) * off) / span));
}

/* the inverse: the ADC value of a temperature (temperatures descend) */
static uint16_t inverse(int16_t t)
{
	int16_t lo = 0, hi = NPTS - 1;

	while (hi - lo > 1) {
		int16_t mid = (int16_t) ((lo + hi) / 2);

		if (temp[mid] == t)
			return adc[mid];
		if (temp[mid] > t)
			lo = mid;
		else
			hi = mid;
	}
	return adc[lo];
}

int main(void)
{
	uint16_t v = in_start;
	uint32_t acc = 0;
	uint16_t k;
	uint8_t i;

	for (i = 0; i < NPTS; i++) {
		adc[i] = (uint16_t) (40 + i * 30 + (uint16_t) i * i);	/* 40 .. 1001 */
		temp[i] = (int16_t) (1250 - (int16_t) i * 52 - (int16_t) ((i * i) >> 2));
	}
	for (k = 0; k < READINGS; k++) {
		int16_t t;

		v = (uint16_t) ((v * 5u + 101u) & 1023u);
		t = interp(v);
		acc = (acc << 3) ^ (acc >> 29) ^ (uint16_t) t;
		if ((k & 3) == 0)
			acc += inverse(t);
	}
	sink = acc;
	return 0;
}
