/* kernel-event-queue: a software timer queue kept sorted by deadline; each new timer's place
 * is found by bisection (signed lo/hi, mid = (lo + hi) / 2), equal deadlines are merged, and
 * the earliest expire as time advances, as a cooperative scheduler does.  Signed division by
 * two, u16 equality and order, and moving array elements up and down.  */
#include <stdint.h>

#define SLOTS 40
#define STEPS 200

volatile uint16_t in_seed = 0x7a31;
volatile uint32_t sink;

int main(void)
{
	uint16_t when[SLOTS];
	uint8_t id[SLOTS];
	int16_t n = 0;
	uint16_t seed = in_seed, now = 0, merged = 0, expired = 0;
	uint32_t acc = 0;
	uint16_t s;

	for (s = 0; s < STEPS; s++) {
		uint16_t due;
		int16_t lo = 0, hi = n, k;

		seed = (uint16_t) (seed * 75u + 74u);
		due = (uint16_t) (now + (seed & 0x1f0u));
		while (lo < hi) {			/* first slot with when >= due */
			int16_t mid = (int16_t) ((lo + hi) / 2);

			if (when[mid] == due)
				break;
			if (when[mid] < due)
				lo = (int16_t) (mid + 1);
			else
				hi = mid;
		}
		if (lo < hi) {
			merged++;			/* a timer with that deadline exists */
		} else if (n < SLOTS) {
			for (k = n; k > lo; k--) {
				when[k] = when[k - 1];
				id[k] = id[k - 1];
			}
			when[lo] = due;
			id[lo] = (uint8_t) s;
			n++;
		}
		now = (uint16_t) (now + 13u);
		while (n > 0 && when[0] <= now) {	/* expire from the front */
			acc += (uint32_t) id[0] * when[0];
			for (k = 1; k < n; k++) {
				when[k - 1] = when[k];
				id[k - 1] = id[k];
			}
			n--;
			expired++;
		}
	}

	sink = acc + ((uint32_t) merged << 20) + ((uint32_t) expired << 8) + (uint16_t) n;
	return 0;
}
