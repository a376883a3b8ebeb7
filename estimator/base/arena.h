/* base/arena.h — one allocation lifetime per loaded file.
 *
 * Everything parsed from one ELF, profile or model lives and dies together, so it is
 * allocated from one arena and released by one call. Loaders then need no per-field
 * cleanup on their many error paths. Running out of memory is the one error that is
 * not a value: like git's xmalloc, it prints "roi: out of memory" and exits, since no
 * caller could do anything useful with it. */
#ifndef ROI_ARENA_H
#define ROI_ARENA_H

#include <stddef.h>

struct roi_arena_chunk;

struct roi_arena {
	struct roi_arena_chunk *head;
};

void *roi_arena_alloc(struct roi_arena *a, size_t size);            /* zero-filled */
void *roi_arena_array(struct roi_arena *a, size_t n, size_t size);  /* zero-filled, overflow-checked */
char *roi_arena_strdup(struct roi_arena *a, const char *s);
char *roi_arena_printf(struct roi_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void roi_arena_free(struct roi_arena *a);

/* malloc/realloc that never return NULL (for buffers outside an arena). */
void *roi_xrealloc(void *p, size_t n, size_t size);

#endif
