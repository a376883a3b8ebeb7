/* base/arena.c — a bump allocator in chunks, see arena.h. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"

struct roi_arena_chunk {
	struct roi_arena_chunk *next;
	size_t used, size;
	max_align_t data[];
};

enum { CHUNK_SIZE = 64 * 1024 };

static _Noreturn void out_of_memory(void)
{
	fputs("roi: out of memory\n", stderr);
	exit(1);
}

void *roi_xrealloc(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		out_of_memory();
	size_t bytes = n * size;

	p = realloc(p, bytes ? bytes : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *roi_arena_alloc(struct roi_arena *a, size_t size)
{
	const size_t align = sizeof(max_align_t);
	struct roi_arena_chunk *c = a->head;

	if (size > SIZE_MAX / 2)
		out_of_memory();
	size = (size + align - 1) / align * align;
	if (!c || c->size - c->used < size) {
		/* Big requests get a chunk of their own, so the current chunk stays in use. */
		size_t want = size > CHUNK_SIZE / 4 ? size : CHUNK_SIZE;
		struct roi_arena_chunk *n = calloc(1, sizeof *n + want);

		if (!n)
			out_of_memory();
		n->size = want;
		if (c && size > CHUNK_SIZE / 4) {
			n->next = c->next;
			c->next = n;
		} else {
			n->next = c;
			a->head = n;
		}
		c = n;
	}
	void *p = (char *)c->data + c->used;
	c->used += size;
	return p;
}

void *roi_arena_array(struct roi_arena *a, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / 2 / size)
		out_of_memory();
	return roi_arena_alloc(a, n * size);
}

char *roi_arena_strdup(struct roi_arena *a, const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(roi_arena_alloc(a, n), s, n);
}

char *roi_arena_printf(struct roi_arena *a, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		out_of_memory();
	char *s = roi_arena_alloc(a, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

void roi_arena_free(struct roi_arena *a)
{
	while (a->head) {
		struct roi_arena_chunk *next = a->head->next;

		free(a->head);
		a->head = next;
	}
}
