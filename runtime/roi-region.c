/* roi-region.c — the region hooks (docs/regions.md): __roi_region_enter/exit time functions and loops
 * with the monotonic clock, and what the profile writer needs from them.
 *
 * The hot path takes no lock and allocates nothing: calls and total are atomic adds into the
 * descriptor, and the open regions of a thread are a fixed-size thread-local stack. A region that
 * runs is linked into a global list at its first entry (a lock-free push), which is how the writer
 * finds every region that ran without any registration by the plugin. */
#include <errno.h>
#include <link.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "roi-internal.h"

/* Deeper nesting is counted (calls) but not timed; the writer says how often that happened. */
#define DEPTH 256

struct open_region {
	struct roi_region *region;
	uint64_t start;         /* ns; only for an outermost entry */
	uint64_t entered;       /* the thread's enters up to and with this one */
	bool outermost;         /* the region was not open already in this thread (recursion) */
};

static _Thread_local struct {
	unsigned depth;         /* may exceed DEPTH: those entries are not in open[] */
	uint64_t entered;       /* every enter of this thread: a region's inner is the difference */
	struct open_region open[DEPTH];
} stack;

/* The list of regions that ran, newest first. A linked region's next is never NULL: the list ends
 * in list_end, and a region being linked holds &claimed. */
static struct roi_region list_end, claimed;
static struct roi_region *head = &list_end;

static bool ran, exit_writer_armed, calibration_started;
static double hook_cost;        /* ns per enter+exit pair, as a region around it sees it */
static double hook_inside;      /* ns of its own pair inside a region's measured time */
static bool calibrated;         /* both are valid */
static uint64_t too_deep, unmatched;

/* The calibration's own region: "linked" from the start (next is not NULL), so never listed. */
static struct roi_region calibration = {.next = &list_end};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void __roi_arm_exit_writer(void)
{
	if (__atomic_exchange_n(&exit_writer_armed, true, __ATOMIC_ACQ_REL))
		return;
	if (atexit(__roi_exit_writer) != 0)
		__roi_warn("cannot register the exit handler; call roi_dump() to write the profile");
}

/* The mean cost of an empty enter+exit pair, as an enclosing region sees it (hook_cost), and how
 * much of it the empty region measures itself (hook_inside: from its clock reading in enter to the
 * one in exit). Each is the lowest of four batches of 250 pairs, so that a preemption during one
 * batch does not count. The hooks are called through a volatile pointer, as instrumented code calls
 * them, never inlined. */
static void calibrate(void)
{
	void (*volatile enter)(struct roi_region *) = __roi_region_enter;
	void (*volatile leave)(struct roi_region *) = __roi_region_exit;
	double pair = -1, inside = -1;

	if (stack.depth + 1 >= DEPTH)
		return;
	for (int batch = 0; batch < 4; batch++) {
		uint64_t timed = calibration.total, t0 = now_ns();

		for (int i = 0; i < 250; i++) {
			enter(&calibration);
			leave(&calibration);
		}
		double mean = (double)(now_ns() - t0) / 250, in = (double)(calibration.total - timed) / 250;
		if (pair < 0 || mean < pair)
			pair = mean;
		if (inside < 0 || in < inside)
			inside = in;
	}
	hook_cost = pair;
	hook_inside = inside < pair ? inside : pair;
	__atomic_store_n(&calibrated, true, __ATOMIC_RELEASE);
}

static void __attribute__((noinline)) first_entry(struct roi_region *r)
{
	struct roi_region *expected = NULL, *old;

	/* Two threads may enter a new region at once: one links it, the other goes on. */
	if (!__atomic_compare_exchange_n(&r->next, &expected, &claimed, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_RELAXED))
		return;
	if (!__atomic_exchange_n(&calibration_started, true, __ATOMIC_ACQ_REL))
		calibrate();
	__atomic_store_n(&ran, true, __ATOMIC_RELEASE);
	__roi_arm_exit_writer();
	old = __atomic_load_n(&head, __ATOMIC_RELAXED);
	do
		__atomic_store_n(&r->next, old, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&head, &old, r, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

/* Weak, like every hook below: a program may bring its own monitor (docs/regions.md) and still
 * link libroi.a for its counters; its definitions then win, and no region is ever listed here. */
__attribute__((weak)) void __roi_region_enter(struct roi_region *r)
{
	unsigned d;
	bool outermost = true;

	if (__builtin_expect(__atomic_load_n(&r->next, __ATOMIC_ACQUIRE) == NULL, 0))
		first_entry(r);
	__atomic_fetch_add(&r->calls, 1, __ATOMIC_RELAXED);
	stack.entered++;
	d = stack.depth++;
	if (d >= DEPTH) {
		__atomic_fetch_add(&too_deep, 1, __ATOMIC_RELAXED);
		return;
	}
	/* Nesting is shallow where people put hooks; recursion finds itself near the top. */
	for (unsigned i = d; i-- > 0;)
		if (stack.open[i].region == r) {
			outermost = false;
			break;
		}
	stack.open[d].region = r;
	stack.open[d].outermost = outermost;
	stack.open[d].entered = stack.entered;
	stack.open[d].start = outermost ? now_ns() : 0;     /* last, so the bookkeeping is not timed */
}

static void close_entry(const struct open_region *o, uint64_t t)
{
	if (!o->outermost)
		return;
	if (t > o->start)
		__atomic_fetch_add(&o->region->total, t - o->start, __ATOMIC_RELAXED);
	__atomic_fetch_add(&o->region->inner, stack.entered - o->entered, __ATOMIC_RELAXED);
}

__attribute__((weak)) void __roi_region_exit(struct roi_region *r)
{
	unsigned d = stack.depth;
	uint64_t t;

	if (d > DEPTH) {                /* an entry too deep to be recorded */
		stack.depth--;
		return;
	}
	if (d > 0 && stack.open[d - 1].region == r && !stack.open[d - 1].outermost) {
		stack.depth = d - 1;    /* a recursive entry: nothing to time */
		return;
	}
	t = now_ns();                   /* before the rest, so that little bookkeeping is timed */
	/* Balanced hooks always find r on top. Otherwise regions were left without their exit
	 * (longjmp): they end here; an exit with no entry at all is only counted. */
	while (d > 0 && stack.open[d - 1].region != r)
		d--;
	if (d == 0) {
		__atomic_fetch_add(&unmatched, 1, __ATOMIC_RELAXED);
		return;
	}
	if (d != stack.depth)
		__atomic_fetch_add(&unmatched, stack.depth - d, __ATOMIC_RELAXED);
	for (unsigned i = stack.depth; i-- > d - 1;)
		close_entry(&stack.open[i], t);
	stack.depth = d - 1;
}

static int add_writable_bytes(struct dl_phdr_info *info, size_t size, void *bytes)
{
	(void)size;
	for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD && (info->dlpi_phdr[i].p_flags & PF_W))
			*(size_t *)bytes += info->dlpi_phdr[i].p_filesz;
	return 0;
}

/* A region's descriptor is initialised data (unit and kind are not zero), so every region of the
 * process, run or not, lies in the file-backed part of a writable segment of a loaded object. */
size_t __roi_regions_possible(void)
{
	size_t bytes = 0;

	dl_iterate_phdr(add_writable_bytes, &bytes);
	return bytes / sizeof(struct roi_region);
}

int __roi_regions_ran(void)
{
	return __atomic_load_n(&ran, __ATOMIC_ACQUIRE);
}

void __roi_regions_close_open(void)
{
	if (stack.depth == 0 && !__atomic_load_n(&too_deep, __ATOMIC_RELAXED) &&
	    !__atomic_load_n(&unmatched, __ATOMIC_RELAXED))
		return;         /* nothing open, nothing to say: no clock read */

	uint64_t t = now_ns(), deep = __atomic_exchange_n(&too_deep, 0, __ATOMIC_RELAXED);
	uint64_t odd = __atomic_exchange_n(&unmatched, 0, __ATOMIC_RELAXED);
	unsigned n = 0, top = stack.depth < DEPTH ? stack.depth : DEPTH;

	/* Closed for this profile and reopened now: a later exit adds only the time after it. */
	for (unsigned i = 0; i < top; i++)
		if (stack.open[i].outermost && stack.open[i].region != &calibration) {
			close_entry(&stack.open[i], t);
			stack.open[i].start = t;
			stack.open[i].entered = stack.entered;
			n++;
		}
	if (n)
		__roi_warn("%u region%s still open when the profile was written (exit() or another noreturn "
			   "call inside %s): timed up to here", n, n == 1 ? " was" : "s were", n == 1 ? "it" : "them");
	if (deep)
		__roi_warn("%llu region entr%s nested deeper than %d: counted, not timed", (unsigned long long)deep,
			   deep == 1 ? "y was" : "ies were", DEPTH);
	if (odd)
		__roi_warn("%llu region exit%s did not match the innermost open region (longjmp out of a region?)",
			   (unsigned long long)odd, odd == 1 ? "" : "s");
}

void __roi_regions_reset(void)
{
	uint64_t t = stack.depth ? now_ns() : 0;

	for (struct roi_region *r = __atomic_load_n(&head, __ATOMIC_ACQUIRE); r != &list_end;
	     r = __atomic_load_n(&r->next, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&r->calls, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&r->total, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&r->inner, 0, __ATOMIC_RELAXED);
	}
	for (unsigned i = 0; i < stack.depth && i < DEPTH; i++) {
		stack.open[i].start = t;
		stack.open[i].entered = stack.entered;
	}
}

static int stat_cmp(const void *a, const void *b)
{
	const struct roi_pf_region *x = a, *y = b;

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

int __roi_regions_snapshot(struct roi_profile *prof)
{
	struct roi_region *first = __atomic_load_n(&head, __ATOMIC_ACQUIRE);
	size_t n = 0;

	prof->nregions = 0;
	prof->regions = NULL;
	prof->has_hook_cost = __atomic_load_n(&calibrated, __ATOMIC_ACQUIRE);
	prof->hook_cost = hook_cost;
	prof->hook_inside = hook_inside;
	for (struct roi_region *r = first; r != &list_end; r = __atomic_load_n(&r->next, __ATOMIC_ACQUIRE))
		n++;
	if (n == 0)
		return 0;
	prof->regions = malloc(n * sizeof *prof->regions);
	if (!prof->regions) {
		errno = ENOMEM;
		return -1;
	}
	/* Only the regions linked by now: the list may grow meanwhile, but only at its head. */
	for (struct roi_region *r = first; r != &list_end && prof->nregions < n;
	     r = __atomic_load_n(&r->next, __ATOMIC_ACQUIRE)) {
		uint64_t calls = __atomic_load_n(&r->calls, __ATOMIC_RELAXED);
		uint64_t total = __atomic_load_n(&r->total, __ATOMIC_RELAXED);
		uint64_t inner = __atomic_load_n(&r->inner, __ATOMIC_RELAXED);

		if (calls || total)
			prof->regions[prof->nregions++] = (struct roi_pf_region){r->unit, r->index, calls, total, inner, true};
	}
	qsort(prof->regions, prof->nregions, sizeof *prof->regions, stat_cmp);
	/* One region reached twice (a unit linked into two objects) is one line. */
	size_t k = 0;
	for (size_t i = 0; i < prof->nregions; i++) {
		if (k && stat_cmp(&prof->regions[k - 1], &prof->regions[i]) == 0) {
			prof->regions[k - 1].calls += prof->regions[i].calls;
			prof->regions[k - 1].total += prof->regions[i].total;
			prof->regions[k - 1].inner += prof->regions[i].inner;
		} else {
			prof->regions[k++] = prof->regions[i];
		}
	}
	prof->nregions = k;
	return 0;
}
