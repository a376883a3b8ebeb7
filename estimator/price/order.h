/* price/order.h — --sort and --top of the text outputs (roi estimate, roi report): the hottest first. */
#ifndef ROI_ORDER_H
#define ROI_ORDER_H

#include <stdbool.h>
#include <stddef.h>

#include "price/estimate.h"
#include "price/hier.h"

enum roi_sort {
	ROI_SORT_NONE,          /* the output's own order */
	ROI_SORT_COST,          /* cycles with a model, operations without (--top alone) */
	ROI_SORT_CYCLES,
	ROI_SORT_OPS,
	ROI_SORT_LINE           /* by file, then line */
};

/* --sort KEY and --top N as given (NULL: not given) into *sort and *top (0: all). Returns 0, or
 * -1 with a usage message in msg ("--sort takes cycles, ops or line, not 'x'"). --sort cycles
 * needs a model. */
int roi_order_options(const char *sort_arg, const char *top_arg, bool model, enum roi_sort *sort, size_t *top,
		      char *msg, size_t size);

/* The estimate's functions and lines in that order (roi estimate's text). */
void roi_estimate_order(struct roi_estimate *e, enum roi_sort key);

/* Every level of the hierarchy, the functions and each node's children, in that order. */
void roi_hier_order(struct roi_hier *h, enum roi_sort key);

#endif
