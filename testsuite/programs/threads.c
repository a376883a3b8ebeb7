/* 8 threads call work() 100000 times each: 800000 calls, which only atomic
   counters (-fplugin-arg-roi-atomic) are guaranteed to count exactly.  */
#include <pthread.h>

#define THREADS 8
#define CALLS 100000

static volatile int sink;

static void __attribute__((noinline)) work(int i)
{
	sink = i;
}

static void *run(void *arg)
{
	(void) arg;
	for (int i = 0; i < CALLS; i++)
		work(i);
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, run, NULL))
			return 1;
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	return 0;
}
