/* kernel-pid-struct: three fixed-point PID loops (Q8 gains) driving simulated first-order
 * plants towards changing setpoints, each controller's state in a struct of i16, i32, u16
 * and bool fields updated through a pointer, and a local status struct used directly, with
 * conditional integration, output clamps and alarms as in motor and heater control.  */
#include <stdint.h>
#include <stdbool.h>

#define LOOPS 3
#define STEPS 160
#define INTEGRAL_MAX 12000

struct pid {
	int16_t kp, ki, kd;		/* Q8 */
	int16_t setpoint;
	int16_t last_error;
	int32_t integral;
	int16_t out_min, out_max;
	uint16_t saturations;
	bool saturated;
	bool enabled;
};

struct status {
	uint16_t steps;
	int16_t worst_error;
	bool alarm;
	uint32_t effort;		/* the sum of |output| */
	int32_t error_sum;
};

volatile uint16_t in_seed = 0x6a3c;
volatile int16_t in_gain = 180;
volatile uint32_t sink;

static int16_t pid_step(struct pid *c, int16_t measured)
{
	int16_t error = (int16_t) (c->setpoint - measured);
	int32_t out;

	if (!c->enabled)
		return 0;
	/* no integration while the output is clamped and the error would push it further */
	if (!c->saturated || (error > 0) != (c->integral > 0)) {
		c->integral += error;
		if (c->integral > INTEGRAL_MAX)
			c->integral = INTEGRAL_MAX;
		else if (c->integral < -INTEGRAL_MAX)
			c->integral = -INTEGRAL_MAX;
	}
	out = (int32_t) c->kp * error + (int32_t) c->ki * (int16_t) (c->integral / 4)
	      + (int32_t) c->kd * (int16_t) (error - c->last_error);
	out /= 256;
	c->last_error = error;
	if (out > c->out_max) {
		out = c->out_max;
		c->saturated = true;
		c->saturations++;
	} else if (out < c->out_min) {
		out = c->out_min;
		c->saturated = true;
		c->saturations++;
	} else {
		c->saturated = false;
	}
	return (int16_t) out;
}

int main(void)
{
	struct pid loops[LOOPS];
	struct status st = {0, 0, false, 0, 0};
	int16_t plant[LOOPS];
	uint16_t rnd = in_seed;
	uint32_t acc = 0;
	uint16_t n;
	uint8_t i;

	for (i = 0; i < LOOPS; i++) {
		loops[i].kp = (int16_t) (in_gain + 40 * i);
		loops[i].ki = (int16_t) (6 + 3 * i);
		loops[i].kd = (int16_t) (64 >> i);
		loops[i].setpoint = 0;
		loops[i].last_error = 0;
		loops[i].integral = 0;
		loops[i].out_min = (int16_t) (-400 - 100 * i);
		loops[i].out_max = (int16_t) (600 + 100 * i);
		loops[i].saturations = 0;
		loops[i].saturated = false;
		loops[i].enabled = i != 1;
		plant[i] = 0;
	}

	for (n = 0; n < STEPS; n++) {
		/* new setpoints every 40 steps; loop 1 switched on half way */
		if (n % 40 == 0)
			for (i = 0; i < LOOPS; i++)
				loops[i].setpoint = (int16_t) ((n / 40 & 1) ? 300 * (i + 1) : -150 * i);
		if (n == STEPS / 2)
			loops[1].enabled = true;
		rnd = (uint16_t) (rnd * 25173u + 13849u);

		for (i = 0; i < LOOPS; i++) {
			struct pid *c = &loops[i];
			int16_t noise = (int16_t) ((rnd >> (4 + i)) & 15) - 8;
			int16_t u = pid_step(c, (int16_t) (plant[i] + noise));
			int16_t e = c->last_error;

			/* a first-order plant: an eighth of the way towards the drive each step */
			plant[i] = (int16_t) (plant[i] + (u - plant[i]) / 8);
			st.effort += (uint32_t) (u < 0 ? -u : u);
			st.error_sum += e;
			if (e > st.worst_error || -e > st.worst_error)
				st.worst_error = e < 0 ? (int16_t) -e : e;
			if (c->saturated && c->saturations > 20)
				st.alarm = true;
		}
		st.steps++;
	}

	for (i = 0; i < LOOPS; i++)
		acc += (uint32_t) loops[i].saturations * 1000u + (uint16_t) plant[i];
	sink = acc + st.effort + (uint32_t) st.error_sum + st.steps
	       + (uint16_t) st.worst_error + (st.alarm ? 0x10000ul : 0);
	return 0;
}
