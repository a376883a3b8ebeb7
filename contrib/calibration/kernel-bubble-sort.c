/* kernel-bubble-sort: bubble sort with early exit of 40 u16 values, re-scrambled and
 * sorted again a few times.  Nested loops of array loads, unsigned compares, swaps and a
 * flag: the simplest data-dependent control flow there is.  */
#include <stdint.h>
#include <stdbool.h>

#define N 40
#define PASSES 3

volatile uint16_t in_seed = 4321;
volatile uint32_t sink;

static void bubble_sort(uint16_t *a, uint8_t n)
{
	uint8_t i, end;

	for (end = (uint8_t) (n - 1); end > 0; end--) {
		bool swapped = false;

		for (i = 0; i < end; i++) {
			if (a[i] > a[i + 1]) {
				uint16_t t = a[i];

				a[i] = a[i + 1];
				a[i + 1] = t;
				swapped = true;
			}
		}
		if (!swapped)
			break;
	}
}

int main(void)
{
	uint16_t a[N];
	uint16_t x = in_seed;
	uint32_t acc = 0;
	uint8_t i, pass;

	for (i = 0; i < N; i++) {
		x = (uint16_t) (x * 25173u + 13849u);
		a[i] = x;
	}
	for (pass = 0; pass < PASSES; pass++) {
		bubble_sort(a, N);
		for (i = 0; i < N; i++)
			acc = (acc << 3 | acc >> 29) + a[i];
		/* scramble partly: reverse a stretch and perturb some values */
		for (i = 0; i < N / 2; i += 2) {
			uint16_t t = a[i];

			a[i] = a[N - 1 - i];
			a[N - 1 - i] = (uint16_t) (t ^ pass);
		}
	}

	sink = acc;
	return 0;
}
