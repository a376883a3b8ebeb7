/* kernel-kalman-float: a scalar Kalman filter in single precision, its state in a struct
 * updated through a pointer, tracking a slowly rising level from 100 noisy readings made
 * by an integer PRNG, as in smoothing an ADC on an MCU with no FPU.  Soft-float add, sub,
 * mul and div in context, f32 field loads and stores, int<->float, calls returning float. */
#include <stdint.h>

#define READINGS 100

struct kalman {
	float x;	/* estimate */
	float p;	/* error covariance */
	float q;	/* process noise */
	float r;	/* measurement noise */
	float k;	/* gain */
};

volatile uint16_t in_seed = 0x2f1b;
volatile int32_t in_level = 1200;
volatile uint16_t in_noise = 40;	/* measurement variance, in counts squared */
volatile uint32_t sink;

static float kalman_update(struct kalman *kf, float z)
{
	kf->p = kf->p + kf->q;
	kf->k = kf->p / (kf->p + kf->r);
	kf->x = kf->x + kf->k * (z - kf->x);
	kf->p = (1.0f - kf->k) * kf->p;
	return kf->x;
}

int main(void)
{
	struct kalman kf;
	uint16_t rnd = in_seed;
	int32_t level = in_level;
	uint32_t acc = 0;
	uint8_t n;

	kf.x = 0.0f;
	kf.p = 100.0f;
	kf.q = 0.0625f;
	kf.r = (float) in_noise;
	kf.k = 0.0f;

	for (n = 0; n < READINGS; n++) {
		uint16_t noise;
		float z, est;

		/* 16-bit LCG; the top bits make the noise, 0 .. 255 counts */
		rnd = (uint16_t) (rnd * 25173u + 13849u);
		noise = (uint16_t) (rnd >> 8);
		if ((n & 15) == 0)
			level += 8;			/* the true level creeps up */
		z = (float) level + ((float) noise - 128.0f) * 0.25f;
		est = kalman_update(&kf, z);
		/* to whole counts, through i32: the estimate can start below zero */
		acc += (uint32_t) (int32_t) (est + 0.5f);
		if (kf.k < 0.05f)
			acc += 1;
	}

	sink = acc + (uint32_t) (kf.x * 16.0f) + (uint32_t) (kf.p * 1024.0f);
	return 0;
}
