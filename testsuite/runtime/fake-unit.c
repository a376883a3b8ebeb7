/* fake-unit.c — stands in for a program built with the roi plugin (runtime=host) until the plugin
 * exists: counter arrays, descriptors in roi_fn_<unit> sections and registering constructors, laid
 * out as docs/formats.md §2 says the plugin emits them.
 *
 * Three units: 9f86d081884c7d65 with 32-bit counters (functions 10, 0, 2, declared out of order),
 * 00000000000000b2 with 16-bit counters, fedcba9876543210 with 64-bit counters.
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
 *
 * Build variants (-D):
 *   CK_A0=0x...   another checksum for function 0 of unit 9f86... (another build)
 *   N_A0=4        another counter count for it
 *   NO_UNIT_B     leave out the 16-bit unit (another unit set)
 *   BAD_ABI       also register a range with ABI version 2
 *   NO_UNITS      register nothing at all */
#define _DEFAULT_SOURCE         /* setenv, usleep */
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
		} else {
			fprintf(stderr, "fake-unit: unknown step '%s'\n", step);
			return 100;
		}
	}
	return 0;
}
