/* kernel-fixed-point: Q8.8 (int16_t, products widened to 32 bits) and Q16.16 (int32_t,
 * products widened to 64 bits) arithmetic: multiply with rounding, divide, and a
 * damped oscillator stepped in each format, the way MCUs without an FPU do real-valued
 * math.  Mixes widening multiplies, arithmetic shifts and a few 64-bit operations.  */
#include <stdint.h>

#define STEPS 60

typedef int16_t q8_8;
typedef int32_t q16_16;

volatile int16_t in_start = 3 * 256;	/* 3.0 in Q8.8 */
volatile uint32_t sink;

static q8_8 q8_mul(q8_8 a, q8_8 b)
{
	int32_t p = (int32_t) a * b;

	return (q8_8) ((p + 128) >> 8);
}

static q8_8 q8_div(q8_8 a, q8_8 b)
{
	return (q8_8) ((int32_t) a * 256 / b);	/* * 256: a may be negative */
}

static q16_16 q16_mul(q16_16 a, q16_16 b)
{
	int64_t p = (int64_t) a * b;

	return (q16_16) ((p + 32768) >> 16);
}

int main(void)
{
	/* x'' = -k x - c x', semi-implicit Euler, in both formats */
	q8_8 x8 = in_start, v8 = 0;
	const q8_8 k8 = 64, c8 = 8, dt8 = 32;		/* 0.25, 0.03125, 0.125 */
	q16_16 x16 = (q16_16) in_start << 8, v16 = 0;
	const q16_16 k16 = 16384, c16 = 2048, dt16 = 8192;
	uint32_t acc = 0;
	uint8_t n;

	for (n = 0; n < STEPS; n++) {
		q8_8 a8 = (q8_8) (-q8_mul(k8, x8) - q8_mul(c8, v8));
		q16_16 a16 = -q16_mul(k16, x16) - q16_mul(c16, v16);

		v8 = (q8_8) (v8 + q8_mul(a8, dt8));
		x8 = (q8_8) (x8 + q8_mul(v8, dt8));
		v16 += q16_mul(a16, dt16);
		x16 += q16_mul(v16, dt16);

		acc += (uint16_t) x8;
		acc ^= (uint32_t) x16;
		if ((n & 7) == 7)	/* ratio of the two positions, as Q8.8 */
			acc += (uint16_t) q8_div((q8_8) (x16 >> 8), (q8_8) (x8 | 1));
	}

	sink = acc;
	return 0;
}
