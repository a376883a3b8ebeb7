/* kernel-quicksort: recursive quicksort (Lomuto partition, middle element as pivot) of
 * 64 u16 values, then a sortedness check, on three different inputs: random, already
 * sorted and all-equal-ish.  Recursion puts real calls, stack frames and pointer
 * arguments into the corpus, with swaps and data-dependent branches.  */
#include <stdint.h>

#define N 64

volatile uint16_t in_seed = 2024;
volatile uint32_t sink;

static void swap(uint16_t *a, uint16_t *b)
{
	uint16_t t = *a;

	*a = *b;
	*b = t;
}

static void quicksort(uint16_t *a, int16_t lo, int16_t hi)
{
	int16_t i, store;
	uint16_t pivot;

	if (lo >= hi)
		return;
	swap(&a[(lo + hi) / 2], &a[hi]);
	pivot = a[hi];
	store = lo;
	for (i = lo; i < hi; i++) {
		if (a[i] < pivot) {
			swap(&a[i], &a[store]);
			store++;
		}
	}
	swap(&a[store], &a[hi]);
	quicksort(a, lo, (int16_t) (store - 1));
	quicksort(a, (int16_t) (store + 1), hi);
}

int main(void)
{
	uint16_t a[N];
	uint16_t x = in_seed;
	uint32_t acc = 0;
	uint8_t i, kind;

	for (kind = 0; kind < 3; kind++) {
		for (i = 0; i < N; i++) {
			x = (uint16_t) (x * 25173u + 13849u);
			if (kind == 0)
				a[i] = x;
			else if (kind == 1)
				a[i] = (uint16_t) (i * 100u);
			else
				a[i] = x & 3;
		}
		quicksort(a, 0, N - 1);
		for (i = 1; i < N; i++)
			if (a[i - 1] > a[i])
				acc += 0x10000UL;	/* not sorted: show it in the sink */
		acc += a[0] ^ a[N / 3] ^ a[N - 1];
	}

	sink = acc;
	return 0;
}
