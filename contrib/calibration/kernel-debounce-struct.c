/* kernel-debounce-struct: two push buttons debounced from a noisy simulated input (a shift
 * history and an integrator), press/hold/release event counters and a min/max/mean tracker
 * of an analog channel, all in local structs used directly (no pointers): i16, bool, u32
 * and i32 fields read and written every sample, u16 shifts by 9, 12 and 13.  */
#include <stdint.h>
#include <stdbool.h>

#define SAMPLES 600
#define HOLD 40
#define INTEG_MAX 6

struct button {
	uint16_t history;
	int16_t integrator;
	bool shift_state, integ_state;
	int16_t held;			/* samples since the last press */
	uint32_t presses, long_presses;
	int32_t balance;		/* shift debouncer events minus integrator events */
};

struct tracker {
	int16_t min, max, last;
	int32_t sum;
	int32_t max_step;
	uint32_t count;
	bool rising;
};

volatile uint16_t in_seed = 0xb400;
volatile uint32_t sink;

int main(void)
{
	struct button a = {0, 0, false, false, 0, 0, 0, 0};
	struct button b = {0xffff, INTEG_MAX, true, true, 0, 0, 0, 0};
	struct tracker t = {INT16_MAX, INT16_MIN, 0, 0, 0, 0, false};
	uint16_t lfsr = in_seed;
	uint16_t n;
	uint32_t acc = 0;

	for (n = 0; n < SAMPLES; n++) {
		bool level_a = (n / 64) & 1;		/* the true button states */
		bool level_b = (n / 90 & 1) == 0;
		bool raw_a, raw_b, now;
		int16_t analog, step;

		/* Galois LFSR x^16 + x^14 + x^13 + x^11 + 1 as the noise source */
		lfsr = (uint16_t) (lfsr >> 1 ^ (-(lfsr & 1u) & 0xb400u));
		raw_a = (lfsr >> 13) == 0 ? !level_a : level_a;	/* 1 in 8 samples flipped */
		raw_b = (lfsr >> 12) < 3 ? !level_b : level_b;	/* 3 in 16 */
		analog = (int16_t) ((int16_t) (lfsr >> 9) - 64 + (level_a ? 200 : 0));

		/* button a: shift-history debouncer and integrator, side by side */
		a.history = (uint16_t) (a.history << 1 | raw_a);
		if ((a.history & 0x00ff) == 0x00ff)
			now = true;
		else if ((a.history & 0x00ff) == 0)
			now = false;
		else
			now = a.shift_state;
		if (now != a.shift_state) {
			a.shift_state = now;
			a.balance++;
			if (now) {
				a.presses++;
				a.held = 0;
			}
		}
		if (raw_a && a.integrator < INTEG_MAX)
			a.integrator++;
		else if (!raw_a && a.integrator > 0)
			a.integrator--;
		if (a.integrator == INTEG_MAX && !a.integ_state) {
			a.integ_state = true;
			a.balance--;
		} else if (a.integrator == 0 && a.integ_state) {
			a.integ_state = false;
			a.balance--;
		}
		if (a.shift_state && ++a.held == HOLD)
			a.long_presses++;

		/* button b: the same, active low */
		b.history = (uint16_t) (b.history << 1 | raw_b);
		if ((b.history & 0x00ff) == 0x00ff)
			now = true;
		else if ((b.history & 0x00ff) == 0)
			now = false;
		else
			now = b.shift_state;
		if (now != b.shift_state) {
			b.shift_state = now;
			b.balance++;
			if (!now) {
				b.presses++;
				b.held = 0;
			}
		}
		if (raw_b && b.integrator < INTEG_MAX)
			b.integrator++;
		else if (!raw_b && b.integrator > 0)
			b.integrator--;
		if (b.integrator == INTEG_MAX && !b.integ_state) {
			b.integ_state = true;
			b.balance--;
		} else if (b.integrator == 0 && b.integ_state) {
			b.integ_state = false;
			b.balance--;
		}
		if (!b.shift_state && ++b.held == HOLD)
			b.long_presses++;

		/* the analog channel */
		step = (int16_t) (analog - t.last);
		if (analog < t.min)
			t.min = analog;
		if (analog > t.max)
			t.max = analog;
		if (step > t.max_step)
			t.max_step = step;
		else if (-step > t.max_step)
			t.max_step = -step;
		t.rising = step > 0;
		t.sum += analog;
		t.count++;
		t.last = analog;
		acc += t.rising;
	}

	acc += a.presses * 7 + a.long_presses * 5 + (uint32_t) a.balance;
	acc = acc * 3 + b.presses * 7 + b.long_presses * 5 + (uint32_t) b.balance;
	acc = acc * 3 + (uint16_t) t.min + (uint16_t) t.max + (uint32_t) t.max_step;
	acc += (uint32_t) (t.sum / (int32_t) t.count);
	sink = acc;
	return 0;
}
