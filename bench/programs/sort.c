/* sort.c — insertion sort of 3000 pseudo-random 16-bit samples, then a
 * median and a mean: compare-and-move loops over an array.  */
#include <stdint.h>
#include <stdio.h>

#define N 3000

static int16_t v[N];

static void insertion_sort(int16_t *a, int n)
{
	for (int i = 1; i < n; i++) {
		int16_t key = a[i];
		int j = i - 1;
		while (j >= 0 && a[j] > key) {
			a[j + 1] = a[j];
			j--;
		}
		a[j + 1] = key;
	}
}

int main(void)
{
	uint32_t x = 7;
	long sum = 0;
	for (int i = 0; i < N; i++) {
		x = x * 1664525u + 1013904223u;
		v[i] = (int16_t) (x >> 16);
	}
	insertion_sort(v, N);
	for (int i = 0; i < N; i++)
		sum += v[i];
	printf("%d %ld\n", v[N / 2], sum / N);
	return 0;
}
