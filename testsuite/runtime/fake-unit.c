/* fake-unit.c — stands in for a program built with the roi plugin (runtime=host) until the plugin
 * exists: counter arrays, descriptors in roi_fn_<unit> sections and registering constructors, laid
 * out as docs/formats.md §2 says the plugin emits them.
 *
 * Three units: 9f86d081884c7d65 with 32-bit counters (functions 10, 0, 2, declared out of order),
 * 00000000000000b2 with 16-bit counters, fedcba9876543210 with 64-bit counters.
 *
 * Regions (docs/regions.md), one descriptor each, entered only by the steps below: f (function 0 of
 * unit 9f86...), l (loop 1), r (function 2, recursive), n (3, never entered), t (loop 4, threads),
 * b (function 0 of unit 00...b2).
 *
 * Usage: fake-unit N [STEP...]
 *   Counter i of every function gets N * (i + 1); counter 1 of the 64-bit unit also N * 5000000000.
 *   Then the steps run in order:
 *     add           count as much again
 *     dump          call roi_dump() and print "dump=RESULT"
 *     reset         call roi_reset()
 *     output PATH   set ROI_OUTPUT to PATH
 *     touch FILE    create FILE (to say the program is running)
 *     wait FILE     wait until FILE exists, at most 30 s (to make parallel runs exit together)
 *     sigxfsz       print "SIGXFSZ=default" or "SIGXFSZ=other": the runtime must restore it
 *     exit K        exit(K) at once; otherwise main returns 0
 *     enter R       __roi_region_enter(R)
 *     leave R       __roi_region_exit(R)
 *     loop K        enter and leave l K times
 *     sleep MS      sleep MS milliseconds
 *     recurse D MS  a recursion D deep, each level in r, the deepest one sleeping MS ms
 *     threads T K   T threads at once, each entering and leaving t K times
 *
 * Build variants (-D):
 *   CK_A0=0x...   another checksum for function 0 of unit 9f86... (another build)
 *   N_A0=4        another counter count for it
 *   NO_UNIT_B     leave out the 16-bit unit (another unit set)
 *   BAD_ABI       also register a range with ABI version 2
 *   NO_UNITS      register nothing at all
 *   OWN_HOOKS     define __roi_region_enter/exit here (a monitor of its own), printing at exit
 *                 "own hooks: ENTERS EXITS" */
#define _DEFAULT_SOURCE         /* setenv, usleep */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "roi.h"

#ifndef CK_A0
#define CK_A0 0x1a2b3c4d
#endif
#ifndef N_A0
#define N_A0 3
#endif

#define DESC(unit, name, index, checksum, bits, counters)                                      \
	static const struct roi_fn_desc name __attribute__((used, section("roi_fn_" #unit))) = { \
		0x##unit##ull, index, checksum, sizeof counters / sizeof counters[0], bits, counters}

static uint32_t c_a0[N_A0], c_a2[2], c_a10[1];
static uint16_t c_b0[2];
static uint64_t c_c1[2];

#ifndef NO_UNITS
DESC(9f86d081884c7d65, d_a10, 10, 0x00000001, 32, c_a10);
DESC(9f86d081884c7d65, d_a0, 0, CK_A0, 32, c_a0);
DESC(9f86d081884c7d65, d_a2, 2, 0xdeadbeef, 32, c_a2);
#ifndef NO_UNIT_B
DESC(00000000000000b2, d_b0, 0, 0x0000b200, 16, c_b0);
#endif
DESC(fedcba9876543210, d_c1, 1, 0x80000000, 64, c_c1);

extern const struct roi_fn_desc __start_roi_fn_9f86d081884c7d65[], __stop_roi_fn_9f86d081884c7d65[];
extern const struct roi_fn_desc __start_roi_fn_00000000000000b2[], __stop_roi_fn_00000000000000b2[];
extern const struct roi_fn_desc __start_roi_fn_fedcba9876543210[], __stop_roi_fn_fedcba9876543210[];

/* One constructor per unit, as the plugin emits them; unit 9f86... is registered three times, as if
 * it were linked from several objects: the same range twice and an overlapping part of it. */
__attribute__((constructor)) static void register_c(void)
{
	__roi_register_unit(ROI_ABI_VERSION, __start_roi_fn_fedcba9876543210,
			    __stop_roi_fn_fedcba9876543210);
}

__attribute__((constructor)) static void register_a(void)
{
	__roi_register_unit(ROI_ABI_VERSION, __start_roi_fn_9f86d081884c7d65,
			    __stop_roi_fn_9f86d081884c7d65);
	__roi_register_unit(ROI_ABI_VERSION, __start_roi_fn_9f86d081884c7d65,
			    __stop_roi_fn_9f86d081884c7d65);
	__roi_register_unit(ROI_ABI_VERSION, __start_roi_fn_9f86d081884c7d65 + 1,
			    __stop_roi_fn_9f86d081884c7d65);
}

#ifndef NO_UNIT_B
__attribute__((constructor)) static void register_b(void)
{
	__roi_register_unit(ROI_ABI_VERSION, __start_roi_fn_00000000000000b2,
			    __stop_roi_fn_00000000000000b2);
}
#endif

#ifdef BAD_ABI
__attribute__((constructor)) static void register_bad(void)
{
	__roi_register_unit(ROI_ABI_VERSION + 1, __start_roi_fn_fedcba9876543210,
			    __stop_roi_fn_fedcba9876543210);
}
#endif
#endif /* NO_UNITS */

static struct roi_region r_f = {0x9f86d081884c7d65ull, 0, ROI_REGION_FUNCTION, 0, 0, 0, 0};
static struct roi_region r_l = {0x9f86d081884c7d65ull, 1, ROI_REGION_LOOP, 0, 0, 0, 0};
static struct roi_region r_r = {0x9f86d081884c7d65ull, 2, ROI_REGION_FUNCTION, 0, 0, 0, 0};
static struct roi_region r_n = {0x9f86d081884c7d65ull, 3, ROI_REGION_FUNCTION, 0, 0, 0, 0};
static struct roi_region r_t = {0x9f86d081884c7d65ull, 4, ROI_REGION_LOOP, 0, 0, 0, 0};
static struct roi_region r_b = {0x00000000000000b2ull, 0, ROI_REGION_FUNCTION, 0, 0, 0, 0};

#ifdef OWN_HOOKS
static unsigned long own_enters, own_exits;

void __roi_region_enter(struct roi_region *r)
{
	(void)r;
	own_enters++;
}

void __roi_region_exit(struct roi_region *r)
{
	(void)r;
	own_exits++;
}

__attribute__((destructor)) static void own_report(void)
{
	printf("own hooks: %lu %lu\n", own_enters, own_exits);
}
#endif

static struct roi_region *region(const char *name)
{
	switch (name[0]) {
	case 'f': return &r_f;
	case 'l': return &r_l;
	case 'r': return &r_r;
	case 'n': return &r_n;
	case 't': return &r_t;
	case 'b': return &r_b;
	}
	fprintf(stderr, "fake-unit: unknown region '%s'\n", name);
	exit(100);
}

static void recurse(int depth, int ms)
{
	__roi_region_enter(&r_r);
	if (depth > 1)
		recurse(depth - 1, ms);
	else
		usleep((useconds_t)ms * 1000);
	__roi_region_exit(&r_r);
}

static pthread_barrier_t start_together;
static long thread_loops;

static void *thread_main(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start_together);
	for (long i = 0; i < thread_loops; i++) {
		__roi_region_enter(&r_t);
		__roi_region_exit(&r_t);
	}
	return NULL;
}

static void threads(int n, long loops)
{
	pthread_t tid[64];

	if (n > 64)
		n = 64;
	thread_loops = loops;
	pthread_barrier_init(&start_together, NULL, (unsigned)n);
	for (int i = 0; i < n; i++)
		pthread_create(&tid[i], NULL, thread_main, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	pthread_barrier_destroy(&start_together);
}

static void count(uint64_t n)
{
	for (size_t i = 0; i < sizeof c_a0 / sizeof c_a0[0]; i++)
		c_a0[i] += (uint32_t)(n * (i + 1));
	for (size_t i = 0; i < 2; i++) {
		c_a2[i] += (uint32_t)(n * (i + 1));
		c_b0[i] += (uint16_t)(n * (i + 1));
		c_c1[i] += n * (i + 1);
	}
	c_a10[0] += (uint32_t)n;
	c_c1[1] += n * 5000000000u;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;

	count(n);
	for (int i = 2; i < argc; i++) {
		const char *step = argv[i], *arg = i + 1 < argc ? argv[i + 1] : "";

		if (!strcmp(step, "add")) {
			count(n);
		} else if (!strcmp(step, "dump")) {
			int ret = roi_dump();
			printf("dump=%d\n", ret);
			fflush(stdout);
		} else if (!strcmp(step, "reset")) {
			roi_reset();
		} else if (!strcmp(step, "output")) {
			setenv("ROI_OUTPUT", arg, 1);
			i++;
		} else if (!strcmp(step, "touch")) {
			FILE *f = fopen(arg, "w");
			if (f)
				fclose(f);
			i++;
		} else if (!strcmp(step, "wait")) {
			for (int ms = 0; ms < 30000 && access(arg, F_OK) != 0; ms++)
				usleep(1000);
			i++;
		} else if (!strcmp(step, "sigxfsz")) {
			struct sigaction sa;
			sigaction(SIGXFSZ, NULL, &sa);
			printf("SIGXFSZ=%s\n", sa.sa_handler == SIG_DFL ? "default" : "other");
			fflush(stdout);
		} else if (!strcmp(step, "exit")) {
			exit(atoi(arg));
		} else if (!strcmp(step, "enter")) {
			__roi_region_enter(region(arg));
			i++;
		} else if (!strcmp(step, "leave")) {
			__roi_region_exit(region(arg));
			i++;
		} else if (!strcmp(step, "loop")) {
			for (long k = atol(arg); k > 0; k--) {
				__roi_region_enter(&r_l);
				__roi_region_exit(&r_l);
			}
			i++;
		} else if (!strcmp(step, "sleep")) {
			usleep((useconds_t)atoi(arg) * 1000);
			i++;
		} else if (!strcmp(step, "recurse")) {
			recurse(atoi(arg), i + 2 < argc ? atoi(argv[i + 2]) : 0);
			i += 2;
		} else if (!strcmp(step, "threads")) {
			threads(atoi(arg), i + 2 < argc ? atol(argv[i + 2]) : 0);
			i += 2;
		} else {
			fprintf(stderr, "fake-unit: unknown step '%s'\n", step);
			return 100;
		}
	}
	return 0;
}
