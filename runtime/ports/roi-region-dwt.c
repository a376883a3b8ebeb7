/* roi-region-dwt.c — region hooks for a Cortex-M3/M4/M7 firmware: inclusive
 * cycles from the DWT cycle counter, accumulated into the region descriptors,
 * where 'roi run' (or a debugger) reads them.  Compile it into the firmware,
 * without the plugin:
 *
 *     arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O2 -c runtime/ports/roi-region-dwt.c
 *
 * The first enter enables the counter (DEMCR.TRCENA, DWT_CTRL.CYCCNTENA).
 * Recursion: every call is counted, the time of the outermost entry only.
 * QEMU does not model the DWT: a firmware with this port runs there (t0410),
 * but the cycles stay 0, and 'roi run --target cortex-m' does not read the
 * descriptors yet: on QEMU, regions are for budgets on the estimate, on a
 * board for a debugger to read.  Interrupt handlers that are regions
 * themselves nest correctly; the stack is ROI_DWT_DEPTH deep.  */
#include <stdint.h>

struct roi_region {             /* runtime/roi.h */
	uint64_t unit;
	uint32_t index;
	uint32_t kind;
	struct roi_region *next;
	uint64_t calls;
	uint64_t total;
	uint64_t inner;             /* hook enters while it was open */
};

#define DEMCR      (*(volatile uint32_t *) 0xE000EDFCu)
#define DWT_CTRL   (*(volatile uint32_t *) 0xE0001000u)
#define DWT_CYCCNT (*(volatile uint32_t *) 0xE0001004u)

#ifndef ROI_DWT_DEPTH
#define ROI_DWT_DEPTH 32
#endif

static struct {
	struct roi_region *region;
	uint32_t start;
	uint32_t entered;           /* enters up to and with this one */
} stack[ROI_DWT_DEPTH];
static unsigned depth, lost;
static uint32_t entered;
static int enabled;

void __roi_region_enter (struct roi_region *region)
{
	if (!enabled) {
		DEMCR |= 1u << 24;          /* TRCENA */
		DWT_CYCCNT = 0;
		DWT_CTRL |= 1u;             /* CYCCNTENA */
		enabled = 1;
	}
	region->calls++;
	entered++;
	if (depth == ROI_DWT_DEPTH) {
		lost++;
		return;
	}
	stack[depth].region = region;
	stack[depth].entered = entered;
	stack[depth].start = DWT_CYCCNT;
	depth++;
}

void __roi_region_exit (struct roi_region *region)
{
	uint32_t now = DWT_CYCCNT;

	if (!depth || stack[depth - 1].region != region) {
		lost++;
		return;
	}
	depth--;
	for (unsigned i = 0; i < depth; i++)
		if (stack[i].region == region)
			return;             /* recursive: the outermost entry counts the time */
	region->total += now - stack[depth].start;   /* 32-bit wrap-safe difference */
	region->inner += entered - stack[depth].entered;
}
