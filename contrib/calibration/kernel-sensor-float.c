/* kernel-sensor-float: ADC counts of a thermistor, a pressure sensor and a current shunt
 * turned into physical units in float, limit-checked and clamped, then turned back into
 * integer counts, millivolts and fixed-point values for a log record.  Float division by
 * constants, float compares with constants, float <-> i32, i16 and u32 conversions.  */
#include <stdint.h>
#include <stdbool.h>

#define SAMPLES 40

struct record {
	int16_t centi_celsius;
	uint32_t pascal;
	int32_t micro_amps;
	uint16_t flags;
};

volatile uint16_t in_seed = 0x6c8e;
volatile float in_vref = 3.3f;
volatile uint32_t sink;

static float adc_to_volts(uint16_t counts, float vref)
{
	return (float) counts * vref / 1023.0f;
}

static uint16_t volts_to_adc(float v, float vref)
{
	float c = v / vref * 1023.0f + 0.5f;

	if (c < 0.0f)
		return 0;
	if (c > 1023.0f)
		return 1023;
	return (uint16_t) (int16_t) c;
}

int main(void)
{
	uint16_t seed = in_seed;
	float vref = in_vref;
	float t_sum = 0.0f;
	uint32_t acc = 0;
	uint8_t n;

	for (n = 0; n < SAMPLES; n++) {
		struct record rec = {0, 0, 0, 0};
		uint16_t raw_t, raw_p, raw_i;
		float v, celsius, kpa, amps;
		int32_t back;

		seed = (uint16_t) (seed * 25173u + 13849u);
		raw_t = seed >> 6;
		raw_p = (uint16_t) (seed & 0x3ff);
		raw_i = (uint16_t) ((seed >> 3) & 0x3ff);

		/* thermistor on a divider, linearised around 25 C */
		v = adc_to_volts(raw_t, vref);
		celsius = 25.0f + (1.65f - v) / 0.022f;
		if (celsius > 125.0f) {
			celsius = 125.0f;
			rec.flags |= 1;
		} else if (celsius < -40.0f) {
			celsius = -40.0f;
			rec.flags |= 2;
		}
		rec.centi_celsius = (int16_t) (celsius * 100.0f);

		/* ratiometric pressure sensor: 0.5 V .. 4.5 V of a 5 V supply is 0 .. 700 kPa */
		v = adc_to_volts(raw_p, vref) * 5.0f / 3.3f;
		kpa = (v - 0.5f) / 4.0f * 700.0f;
		if (kpa < 0.0f)
			kpa = 0.0f;
		if (kpa >= 650.0f)
			rec.flags |= 4;
		rec.pascal = (uint32_t) (kpa * 1000.0f);

		/* bidirectional current through a 10 mOhm shunt with a gain of 50 */
		v = adc_to_volts(raw_i, vref);
		amps = (v - 1.65f) / 0.5f;
		if (amps > 1.5f || amps < -1.5f)
			rec.flags |= 8;
		rec.micro_amps = (int32_t) (amps * 1.0e6f);

		/* back to counts: how well does the chain round-trip? */
		back = (int32_t) volts_to_adc((float) rec.micro_amps / 1.0e6f * 0.5f + 1.65f, vref);
		acc += (uint32_t) (back - (int32_t) raw_i + 2);
		back = (int32_t) volts_to_adc(((float) rec.pascal / 700000.0f * 4.0f + 0.5f) / 5.0f * 3.3f, vref);
		acc += (uint32_t) (back - (int32_t) raw_p + 2);

		t_sum += (float) rec.centi_celsius / 100.0f;
		acc += (uint16_t) rec.centi_celsius + rec.pascal + (uint32_t) rec.micro_amps + rec.flags;
	}

	acc += (uint32_t) (int32_t) (t_sum / (float) SAMPLES * 10.0f);
	sink = acc;
	return 0;
}
