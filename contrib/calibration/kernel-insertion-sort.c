/* kernel-insertion-sort: insertion sort of 64 signed 16-bit values (half of them
 * negative), then a check that the result is ordered, repeated on fresh data.  The
 * inner while loop's two-part condition and the shifting of elements are the typical
 * shape of small in-place sorts in firmware (median filters, top-N lists).  */
#include <stdint.h>

#define N 64
#define PASSES 2

volatile uint16_t in_seed = 777;
volatile uint32_t sink;

static void insertion_sort(int16_t *a, uint8_t n)
{
	uint8_t i;

	for (i = 1; i < n; i++) {
		int16_t key = a[i];
		uint8_t j = i;

		while (j > 0 && a[j - 1] > key) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = key;
	}
}

int main(void)
{
	int16_t a[N];
	uint16_t x = in_seed;
	uint32_t acc = 0;
	uint8_t i, pass;

	for (pass = 0; pass < PASSES; pass++) {
		for (i = 0; i < N; i++) {
			x = (uint16_t) (x * 25173u + 13849u);
			a[i] = (int16_t) (x >> 1) - 16384;
		}
		insertion_sort(a, N);
		for (i = 1; i < N; i++)
			if (a[i - 1] > a[i])
				acc += 0x10000UL;	/* not sorted: show it in the sink */
		acc += (uint16_t) a[0] ^ (uint16_t) a[N / 2] ^ (uint16_t) a[N - 1];
	}

	sink = acc;
	return 0;
}
