/* roi-threads.c — counters per thread, for code that threads run at once (-fplugin-arg-roi-atomic,
 * and OpenMP's outlined bodies).
 *
 * A relaxed atomic add per counter update costs little in one thread and a lot in eight, which
 * fight over the counters' cache lines. So each thread counts in a copy of its own of a unit's
 * counters, with plain updates, and the copies are added into the unit's counters (the ones the
 * descriptors name, which the profile is taken from) when the thread ends, and when the profile is
 * taken (roi_dump, at exit) for the threads still running. The plugin's code reaches its thread's
 * copy through the unit's thread-local pointer __roi_t_<unit>, and, where it is null (the thread's
 * first call into the unit), calls __roi_thread_unit to make one. A copy holds the unit's
 * functions' counters in the order of their index, each function's ncounters, as the plugin lays
 * them out (gcc-plugin/roi-counters.cc).
 *
 * The counts of a thread that has ended are exact; those of a thread still running when the
 * profile is taken are as far as it got (read while it counts on). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "roi-internal.h"

/* A unit counted per thread, and the copies of the threads that have one. */
struct copy;
struct unit {
	const struct roi_fn_desc *start, *stop;
	size_t *offset;         /* per descriptor (in section order): its first counter in a copy */
	size_t ncounters;
	unsigned bytes;         /* of a counter */
	struct copy *copies;
	struct unit *next;
};

/* One thread's copy of a unit's counters. */
struct copy {
	struct unit *unit;
	void **slot;            /* the thread's __roi_t_<unit>, pointing at counters */
	struct copy *prev, *next;       /* the unit's copies */
	struct copy *thread_next;       /* the thread's copies */
	unsigned char counters[];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t key;       /* a thread's copies */
static struct unit *units;

static uint64_t get(const unsigned char *p, unsigned bytes)
{
	switch (bytes) {
	case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
	case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
	default: { uint64_t v; memcpy(&v, p, 8); return v; }
	}
}

/* *p += v at a counter of bytes bytes; a 16-bit one saturates, as the plugin's do. */
static void add(unsigned char *p, unsigned bytes, uint64_t v)
{
	switch (bytes) {
	case 2: {
		uint16_t x;

		memcpy(&x, p, 2);
		x = v >= (uint64_t)(0xffff - x) ? 0xffff : (uint16_t)(x + v);
		memcpy(p, &x, 2);
		break;
	}
	case 4: { uint32_t x; memcpy(&x, p, 4); x += (uint32_t)v; memcpy(p, &x, 4); break; }
	default: { uint64_t x; memcpy(&x, p, 8); x += v; memcpy(p, &x, 8); break; }
	}
}

/* c's counts into its unit's counters, and c back to zero (under lock). A counter the copy has
 * not touched is left alone: code the copy does not count (a function not counted per thread)
 * may be updating it in another thread. */
static void merge(struct copy *c)
{
	struct unit *u = c->unit;
	size_t j = 0;

	for (const struct roi_fn_desc *d = u->start; d < u->stop; d++, j++)
		for (uint32_t k = 0; k < d->ncounters; k++) {
			unsigned char *p = c->counters + (u->offset[j] + k) * u->bytes;
			uint64_t v = get(p, u->bytes);

			if (v) {
				add((unsigned char *)d->counters + (size_t)k * u->bytes, u->bytes, v);
				memset(p, 0, u->bytes);
			}
		}
}

/* At a thread's end: its copies into the units' counters, and gone. */
static void thread_ends(void *head)
{
	pthread_mutex_lock(&lock);
	for (struct copy *c = head, *next; c; c = next) {
		next = c->thread_next;
		merge(c);
		if (c->prev)
			c->prev->next = c->next;
		else
			c->unit->copies = c->next;
		if (c->next)
			c->next->prev = c->prev;
		/* (code that runs after this in the thread, another key's destructor, gets a new copy) */
		*c->slot = NULL;
		free(c);
	}
	pthread_mutex_unlock(&lock);
}

static void make_key(void)
{
	if (pthread_key_create(&key, thread_ends) != 0) {
		__roi_warn("cannot count per thread (pthread_key_create failed)");
		abort();
	}
}

/* The unit of the descriptors [start, stop), made on its first call (under lock). */
static struct unit *unit_of(const struct roi_fn_desc *start, const struct roi_fn_desc *stop)
{
	struct unit *u;
	size_t n = (size_t)(stop - start), sum = 0;

	for (u = units; u; u = u->next)
		if (u->start == start)
			return u;
	u = calloc(1, sizeof *u);
	if (!u || !(u->offset = calloc(n ? n : 1, sizeof *u->offset)))
		return NULL;
	/* in index order, as the plugin counts them */
	uint32_t last = 0;
	for (size_t j = 0; j < n; j++)
		if (start[j].index > last)
			last = start[j].index;
	for (uint64_t index = 0; index <= last; index++)
		for (size_t j = 0; j < n; j++)
			if (start[j].index == index) {
				u->offset[j] = sum;
				sum += start[j].ncounters;
			}
	u->start = start;
	u->stop = stop;
	u->ncounters = sum;
	u->bytes = n ? start->counter_bits / 8 : 4;
	u->next = units;
	__atomic_store_n(&units, u, __ATOMIC_RELEASE);
	return u;
}

void *__roi_thread_unit(void **slot, const struct roi_fn_desc *start, const struct roi_fn_desc *stop)
{
	struct unit *u;
	struct copy *c = NULL;

	pthread_once(&once, make_key);
	pthread_mutex_lock(&lock);
	u = start && stop > start ? unit_of(start, stop) : NULL;
	if (u)
		c = calloc(1, sizeof *c + (u->ncounters ? u->ncounters : 1) * u->bytes);
	if (!c) {
		pthread_mutex_unlock(&lock);
		__roi_warn("out of memory for a thread's counters");
		abort();
	}
	c->unit = u;
	c->slot = slot;
	c->next = u->copies;
	if (c->next)
		c->next->prev = c;
	u->copies = c;
	c->thread_next = pthread_getspecific(key);
	pthread_setspecific(key, c);
	*slot = c->counters;
	pthread_mutex_unlock(&lock);
	return c->counters;
}

/* (a program that never counted per thread takes no lock at exit) */
void __roi_threads_merge(void)
{
	if (!__atomic_load_n(&units, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&lock);
	for (struct unit *u = units; u; u = u->next)
		for (struct copy *c = u->copies; c; c = c->next)
			merge(c);
	pthread_mutex_unlock(&lock);
}

void __roi_threads_reset(void)
{
	if (!__atomic_load_n(&units, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&lock);
	for (struct unit *u = units; u; u = u->next)
		for (struct copy *c = u->copies; c; c = c->next)
			memset(c->counters, 0, u->ncounters * u->bytes);
	pthread_mutex_unlock(&lock);
}

void __roi_threads_after_fork(void)
{
	/* The child has one thread: the lock another held is free in it. */
	pthread_mutex_init(&lock, NULL);
}
