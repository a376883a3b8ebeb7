/* kernel-timestamp64: a free-running 16-bit timer's captures extended to a 64-bit tick count
 * across wraps, with 64-bit deadlines, intervals, drift and microsecond conversion, as an
 * uptime clock and an event scheduler keep them.  64-bit adds, subtracts, compares, xors and
 * constant shifts, and widening from 16 and 32 bits, in a loop with other work around them.  */
#include <stdint.h>

#define EVENTS 160

volatile uint16_t in_step = 1237;
volatile uint16_t in_period = 9000;
volatile uint32_t sink;

int main(void)
{
	uint16_t step = in_step, period = in_period;
	uint16_t cap = 0, prev = 0;
	uint64_t now = 0, last = 0, deadline = period;
	uint64_t longest = 0, sig = 0;
	int64_t drift = 0;
	uint16_t fired = 0, wraps = 0, e;

	for (e = 0; e < EVENTS; e++) {
		uint64_t dt;
		int32_t err;

		cap = (uint16_t) (cap + step + (e & 7u) * 311u);
		if (cap < prev)
			wraps++;
		now += (uint16_t) (cap - prev);		/* ticks since the last capture */
		prev = cap;

		err = (int32_t) (now & 0xffu) - 128;	/* phase error of a reference clock */
		drift += err;
		if (now >= deadline) {
			fired++;
			deadline += (uint32_t) period << 2;
		}
		dt = now - last;
		last = now;
		if (dt > longest)
			longest = dt;
		sig ^= dt << 3;				/* a signature of the intervals */
		sig ^= sig >> 17;
	}

	sink = (uint32_t) (now >> 4)			/* 16 MHz ticks to microseconds */
	       + (uint32_t) (longest >> 8) + (uint32_t) drift + (uint32_t) (sig >> 32)
	       + (uint32_t) sig + ((uint32_t) fired << 16) + wraps;
	return 0;
}
