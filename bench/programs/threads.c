/* threads.c — THREADS threads each hash CALLS values through a small function with a branch and a
 * loop: the counters of one unit updated from every thread at once, as in a parallel program.
 * Prints the sum, so that the work is kept.  */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define THREADS 8
#define CALLS 10000000

static uint32_t __attribute__((noinline)) mix(uint32_t x)
{
	for (int k = 0; k < 4; k++)
		x = x & 1 ? (x >> 1) ^ 0x9e3779b9u : x * 5 + 1;
	return x;
}

static void *run(void *arg)
{
	uint32_t x = (uint32_t) (uintptr_t) arg, sum = 0;

	for (int i = 0; i < CALLS; i++) {
		x = mix(x + (uint32_t) i);
		sum += x;
	}
	return (void *) (uintptr_t) sum;
}

int main(void)
{
	pthread_t t[THREADS];
	uint32_t total = 0;

	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, run, (void *) (uintptr_t) (i + 1)))
			return 1;
	for (int i = 0; i < THREADS; i++) {
		void *r;
		pthread_join(t[i], &r);
		total += (uint32_t) (uintptr_t) r;
	}
	printf("%08x\n", (unsigned) total);
	return 0;
}
