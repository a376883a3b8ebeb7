/* base/array.c — zero-filled, growing and sorted arrays, see array.h. */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/array.h"

void *roi_xzalloc(size_t n, size_t size)
{
	void *p = roi_xrealloc(NULL, n ? n : 1, size);

	memset(p, 0, (n ? n : 1) * size);
	return p;
}

void *roi_xgrow(void *p, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 16;
	return roi_xrealloc(p, *cap, size);
}

void roi_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}
