/* base/array.h — arrays outside an arena: zero-filled, grown by doubling, sorted. Running out of
 * memory ends roi, as roi_xrealloc does (arena.h). */
#ifndef ROI_ARRAY_H
#define ROI_ARRAY_H

#include <stddef.h>

/* n elements of size bytes, zero-filled (room for one when n is 0). */
void *roi_xzalloc(size_t n, size_t size);
/* p with room for element n: its capacity *cap doubled (from 16) when n has reached it. */
void *roi_xgrow(void *p, size_t n, size_t *cap, size_t size);
/* qsort, which must not be given a null array even when it is empty. */
void roi_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

#endif
