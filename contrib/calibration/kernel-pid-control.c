/* kernel-pid-control: a fixed-point PID controller (Q8 gains, i32 internals, integral
 * anti-windup clamp, derivative on the measurement, output saturated to a 10-bit PWM)
 * closing the loop around a simulated first-order plant, with setpoint steps.  The
 * control-loop body of motor and heater firmware: i32 multiplies, shifts and clamps.  */
#include <stdint.h>

#define STEPS 250

struct pid {
	int16_t kp, ki, kd;		/* Q8 gains */
	int32_t integral;		/* Q8 */
	int32_t integral_max;
	int16_t last_measure;
};

volatile int16_t in_kp = 3 * 256 / 2;	/* 1.5 */
volatile uint32_t sink;

static int32_t clamp32(int32_t x, int32_t lo, int32_t hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

static uint16_t pid_step(struct pid *c, int16_t setpoint, int16_t measure)
{
	int16_t error = (int16_t) (setpoint - measure);
	int32_t p, d, out;

	p = (int32_t) c->kp * error;
	c->integral = clamp32(c->integral + (int32_t) c->ki * error, -c->integral_max, c->integral_max);
	d = (int32_t) c->kd * (int16_t) (c->last_measure - measure);
	c->last_measure = measure;
	out = (p + c->integral + d) >> 8;
	return (uint16_t) clamp32(out, 0, 1023);
}

int main(void)
{
	struct pid ctl = {0, 20, 64, 0, 200L * 256, 0};
	int32_t plant = 0;			/* Q4 temperature-like state */
	int16_t setpoint = 100;
	uint32_t acc = 0;
	uint16_t n;

	ctl.kp = in_kp;
	for (n = 0; n < STEPS; n++) {
		int16_t measure = (int16_t) (plant >> 4);
		uint16_t pwm;

		if (n == 80)
			setpoint = 400;
		else if (n == 170)
			setpoint = 50;
		pwm = pid_step(&ctl, setpoint, measure);
		/* plant: rises with drive, leaks toward ambient */
		plant += (int32_t) pwm - (plant >> 5);
		acc += pwm + (uint16_t) measure;
	}

	sink = acc;
	return 0;
}
