/* input/flow.c — counted edges and flow conservation, see flow.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../gcc-plugin/roi-checksum.h"
#include "base/arena.h"
#include "input/flow.h"

/* The graph the counted edges are off a spanning tree of: each block is two vertices, its way in
 * (2b) and its way out (2b + 1), joined by an edge for its entries; the function's entry and exit
 * are one vertex, the root (2 nblocks), which is also block 0's way in. Its edges: the blocks' edges
 * (fn->nedges, numbered as flow.h says), then each block's entries (fn->nedges + b). */
#define ROOT(fn) (2 * (fn)->nblocks)
#define WAY_IN(fn, b) ((b) == 0 ? ROOT(fn) : 2 * (size_t)(b))
#define WAY_OUT(b) (2 * (size_t)(b) + 1)

/* Union-find over the vertices. */
static size_t find(size_t *parent, size_t v)
{
	while (parent[v] != v) {
		parent[v] = parent[parent[v]];
		v = parent[v];
	}
	return v;
}

/* The number of the counted edge r of fn: block r.from's successor r.succ, or, r.from -1, the
 * entries of block r.succ. */
static size_t edge_number(const struct roi_function *fn, const struct roi_block *blk, struct roi_edge_ref r)
{
	return r.from < 0 ? fn->nedges + (size_t)r.succ : blk[r.from].edge + (size_t)r.succ;
}

/* Every edge's ends, into src[fn->nedges + fn->nblocks] and dst[...]. */
static void ends(const struct roi_function *fn, const struct roi_block *blk, size_t *src, size_t *dst)
{
	for (size_t b = 0, e = 0; b < fn->nblocks; b++)
		for (size_t i = 0; i < blk[b].nsucc + blk[b].fake; i++, e++) {
			src[e] = WAY_OUT(b);
			dst[e] = i < blk[b].nsucc && blk[b].succ[i] >= 0 ? WAY_IN(fn, blk[b].succ[i]) : ROOT(fn);
		}
	for (size_t b = 0; b < fn->nblocks; b++) {
		src[fn->nedges + b] = WAY_IN(fn, b);
		dst[fn->nedges + b] = WAY_OUT(b);
	}
}

static int parse_fake(const struct jv *v, const cJSON *fake, const char *w, struct roi_function *fn,
		      struct roi_block *blk)
{
	const cJSON *x;
	char ew[320];
	size_t i = 0;
	long long prev = -1;

	cJSON_ArrayForEach(x, fake) {
		long long b;

		/* (the element's path made only for a message) */
		if (!jv_integer_ok(x, 0, (long long)fn->nblocks - 1, &b) &&
		    jv_integer_item(v, x, jv_index(ew, sizeof ew, w, "fake", i), 0, (long long)fn->nblocks - 1, &b) != 0)
			return -1;
		if (blk[b].value)
			return jv_fail(v, jv_index(ew, sizeof ew, w, "fake", i), "block %lld is a value counter", b);
		if (b <= prev)
			return jv_fail(v, jv_index(ew, sizeof ew, w, "fake", i), "%lld does not follow %lld: the blocks ascend",
				       b, prev);
		blk[b].fake = true;
		prev = b;
		i++;
	}
	return 0;
}

/* "WHERE.edges[I]", or with k >= 0 "WHERE.edges[I][K]", into buf: made only for a message. */
static const char *edge_path(char *buf, size_t size, const char *w, size_t i, int k)
{
	size_t n = strlen(jv_index(buf, size, w, "edges", i));

	if (k >= 0)
		snprintf(buf + n, size - n, "[%d]", k);
	return buf;
}

static int parse_edges(const struct jv *v, const cJSON *edges, const char *w, struct roi_function *fn,
		       const struct roi_block *blk)
{
	const cJSON *x;
	char ew[320];
	size_t n = (size_t)cJSON_GetArraySize(edges), i = 0, ne = fn->nedges + fn->nblocks;
	struct roi_edge_ref *c = roi_arena_array(v->arena, n, sizeof *c);
	bool *seen = roi_xrealloc(NULL, ne ? ne : 1, sizeof *seen);
	int rc = -1;

	memset(seen, 0, ne * sizeof *seen);
	cJSON_ArrayForEach(x, edges) {
		const cJSON *from, *succ;
		long long f, s, smax;

		if (!cJSON_IsArray(x) || cJSON_GetArraySize(x) != 2) {
			jv_fail(v, edge_path(ew, sizeof ew, w, i, -1), "must be an array of 2 integers");
			goto out;
		}
		from = cJSON_GetArrayItem(x, 0);
		succ = cJSON_GetArrayItem(x, 1);
		if (!jv_integer_ok(from, -1, (long long)fn->nblocks - 1, &f) &&
		    jv_integer_item(v, from, edge_path(ew, sizeof ew, w, i, 0), -1, (long long)fn->nblocks - 1, &f) != 0)
			goto out;
		if (f >= 0 && blk[f].value) {
			jv_fail(v, edge_path(ew, sizeof ew, w, i, 0), "block %lld is a value counter", f);
			goto out;
		}
		smax = f < 0 ? (long long)fn->nblocks - 1 : (long long)blk[f].nsucc - 1;
		if (!jv_integer_ok(succ, 0, smax, &s) &&
		    jv_integer_item(v, succ, edge_path(ew, sizeof ew, w, i, 1), 0, smax, &s) != 0)
			goto out;
		if (f < 0 && blk[s].value) {
			jv_fail(v, edge_path(ew, sizeof ew, w, i, 1), "block %lld is a value counter", s);
			goto out;
		}
		c[i] = (struct roi_edge_ref){(int)f, (int)s};
		size_t e = edge_number(fn, blk, c[i]);
		if (seen[e]) {
			jv_fail(v, edge_path(ew, sizeof ew, w, i, -1), "[%lld, %lld] is counted twice", f, s);
			goto out;
		}
		seen[e] = true;
		i++;
	}
	fn->counted = c;
	fn->ncounted = n;

	/* The edges not counted must be a forest: a cycle of them would have counts that no counter
	 * decides. (A value counter's block has no edges: its entries' edge is none.) */
	size_t nv = ROOT(fn) + 1;
	size_t *parent = roi_xrealloc(NULL, nv, sizeof *parent);
	size_t *src = roi_xrealloc(NULL, ne, sizeof *src), *dst = roi_xrealloc(NULL, ne, sizeof *dst);

	rc = 0;
	ends(fn, blk, src, dst);
	for (size_t k = 0; k < nv; k++)
		parent[k] = k;
	for (size_t e = 0; e < ne && !rc; e++) {
		size_t a = src[e], b = dst[e];

		if (seen[e] || (e >= fn->nedges && blk[e - fn->nedges].value))
			continue;
		if (find(parent, a) == find(parent, b)) {
			size_t k = (a == ROOT(fn) ? b : a) / 2;

			snprintf(ew, sizeof ew, "%s%sedges", w, *w ? "." : "");
			rc = jv_fail(v, ew, "the edges not counted close a cycle through block %zu: the counts around it "
				     "follow from no counter", k);
		} else
			parent[find(parent, a)] = find(parent, b);
	}
	free(parent);
	free(src);
	free(dst);
out:
	free(seen);
	return rc;
}

int roi_flow_parse(const struct jv *v, const cJSON *f, const char *w, struct roi_function *fn,
		   struct roi_block *blk)
{
	const cJSON *fake = NULL, *edges = NULL;
	size_t nvalues = 0, e = 0;

	if (jv_array(v, f, w, "fake", false, &fake) || jv_array(v, f, w, "edges", false, &edges))
		return -1;
	if (!fake != !edges)
		return jv_fail(v, w, "'fake' and 'edges' come together");
	fn->on_edges = edges != NULL;
	for (size_t b = 0; b < fn->nblocks; b++) {
		nvalues += blk[b].value;
		/* counted per block: a block without successors still leaves, by a call that does not
		 * return */
		blk[b].fake = !fn->on_edges && !blk[b].value && blk[b].nsucc == 0;
	}
	if (fake && parse_fake(v, fake, w, fn, blk) != 0)
		return -1;
	for (size_t b = 0; b < fn->nblocks; b++) {
		blk[b].edge = e;
		e += blk[b].nsucc + blk[b].fake;
	}
	fn->nedges = e;
	fn->counted = NULL;
	fn->ncounted = 0;
	fn->ncounters = fn->nblocks;
	if (!edges)
		return 0;
	for (size_t b = 0; b < fn->nblocks; b++) {
		char ew[320];

		if (!blk[b].value && !blk[b].nsucc && !blk[b].fake)
			return jv_fail(v, jv_index(ew, sizeof ew, w, "blocks", b),
				       "no successor and not in 'fake': it is never left");
		for (size_t i = 0; i < blk[b].nsucc; i++)
			if (blk[b].succ[i] == 0)
				return jv_fail(v, jv_index(ew, sizeof ew, w, "blocks", b),
					       "succ: 0, the entry block, which only the function's calls enter");
	}
	if (parse_edges(v, edges, w, fn, blk) != 0)
		return -1;
	fn->ncounters = fn->ncounted + nvalues;
	return 0;
}

uint32_t roi_flow_checksum(const struct roi_function *fn, uint32_t block_crc)
{
	struct roi_checksum c = {block_crc};

	if (!fn->on_edges)
		return block_crc;
	for (size_t b = 0; b < fn->nblocks; b++)
		if (fn->blocks[b].fake)
			roi_checksum_fake(&c, (long long)b);
	for (size_t i = 0; i < fn->ncounted; i++)
		roi_checksum_edge(&c, fn->counted[i].from, fn->counted[i].succ);
	return c.crc;
}

void roi_flow_edges_from_blocks(const struct roi_function *fn, const uint64_t *block, uint64_t *edge)
{
	for (size_t b = 0; b < fn->nblocks; b++) {
		const struct roi_block *blk = &fn->blocks[b];
		uint64_t out = 0;

		for (size_t i = 0; i < blk->nsucc; i++) {
			int to = blk->succ[i];

			edge[blk->edge + i] = blk->nsucc == 1 || to < 0 ? block[b] : block[to];
			out += edge[blk->edge + i];
		}
		if (blk->fake)
			edge[blk->edge + blk->nsucc] = block[b] > out ? block[b] - out : 0;
	}
}

/* A solved count into 64 bits: a negative one (counters that do not add up) is 0 and counted. */
static int fit(__int128 x, uint64_t *out, struct roi_flow_result *r)
{
	if (x < 0) {
		r->negative++;
		*out = 0;
		return 0;
	}
	if (x > (__int128)UINT64_MAX)
		return -1;
	*out = (uint64_t)x;
	return 0;
}

int roi_flow_solve(const struct roi_function *fn, const uint64_t *counters, uint64_t stuck, uint64_t *block,
		   uint64_t *edge, bool *saturated, struct roi_flow_result *r)
{
	const struct roi_block *blk = fn->blocks;

	memset(r, 0, sizeof *r);
	if (!fn->on_edges) {
		for (size_t b = 0; b < fn->nblocks; b++) {
			bool stuck_here = stuck && counters[b] == stuck;

			block[b] = counters[b];
			r->saturated += stuck_here;
			if (saturated)
				saturated[b] = stuck_here;
		}
		roi_flow_edges_from_blocks(fn, block, edge);
		return 0;
	}

	/* The edges, their ends and what is known of them; the edges at each vertex. */
	size_t ne = fn->nedges + fn->nblocks, nv = ROOT(fn) + 1, *src = roi_xrealloc(NULL, ne, sizeof *src);
	size_t *dst = roi_xrealloc(NULL, ne, sizeof *dst), *first = roi_xrealloc(NULL, nv + 1, sizeof *first);
	size_t *at = roi_xrealloc(NULL, 2 * ne, sizeof *at), *unknown = roi_xrealloc(NULL, nv, sizeof *unknown);
	size_t *queue = roi_xrealloc(NULL, nv, sizeof *queue), nq = 0;
	__int128 *val = roi_xrealloc(NULL, ne, sizeof *val);
	bool *known = roi_xrealloc(NULL, ne, sizeof *known), *taint = roi_xrealloc(NULL, ne, sizeof *taint);
	int rc = 0;

	memset(first, 0, (nv + 1) * sizeof *first);
	memset(unknown, 0, nv * sizeof *unknown);
	memset(known, 0, ne * sizeof *known);
	memset(taint, 0, ne * sizeof *taint);
	ends(fn, blk, src, dst);
	for (size_t e = 0; e < ne; e++) {
		first[src[e] + 1]++;
		first[dst[e] + 1]++;
	}
	for (size_t k = 0; k < nv; k++)
		first[k + 1] += first[k];
	size_t *fill = roi_xrealloc(NULL, nv, sizeof *fill);
	memcpy(fill, first, nv * sizeof *fill);
	for (size_t e = 0; e < ne; e++) {
		at[fill[src[e]]++] = e;
		at[fill[dst[e]]++] = e;
	}
	free(fill);
	for (size_t k = 0; k < fn->ncounted; k++) {
		size_t e = edge_number(fn, blk, fn->counted[k]);

		val[e] = counters[k];
		known[e] = true;
		taint[e] = stuck && counters[k] == stuck;
	}
	/* (a value counter is no block: nothing enters it) */
	for (size_t b = 0; b < fn->nblocks; b++)
		if (blk[b].value) {
			val[fn->nedges + b] = 0;
			known[fn->nedges + b] = true;
		}
	for (size_t e = 0; e < ne; e++)
		if (!known[e]) {
			unknown[src[e]]++;
			unknown[dst[e]]++;
		}
	for (size_t k = 0; k < ROOT(fn); k++)
		if (unknown[k] == 1)
			queue[nq++] = k;

	/* A block with one edge unknown: that edge carries what the others leave over. */
	while (nq) {
		size_t k = queue[--nq], u = ne;
		__int128 in = 0, out = 0;
		bool t = false;

		if (unknown[k] != 1)
			continue;
		for (size_t j = first[k]; j < first[k + 1]; j++) {
			size_t e = at[j];

			if (!known[e]) {
				u = e;
				continue;
			}
			/* (a loop from the block to itself is in and out: nothing) */
			if (src[e] == dst[e])
				continue;
			if (dst[e] == k)
				in += val[e];
			else
				out += val[e];
			t |= taint[e];
		}
		val[u] = src[u] == k ? in - out : out - in;
		known[u] = true;
		taint[u] = t;
		unknown[src[u]]--;
		unknown[dst[u]]--;
		size_t other = src[u] == k ? dst[u] : src[u];
		if (other < ROOT(fn) && unknown[other] == 1)
			queue[nq++] = other;
	}

	/* A block's count: the edge of its entries. */
	size_t values = 0;
	for (size_t b = 0; b < fn->nblocks && !rc; b++) {
		bool t;

		if (blk[b].value) {
			size_t k = fn->ncounted + values++;

			block[b] = counters[k];
			t = stuck && counters[k] == stuck;
		} else {
			t = taint[fn->nedges + b];
			rc = fit(val[fn->nedges + b], &block[b], r);
		}
		if (t) {
			block[b] = stuck;
			r->saturated++;
		}
		if (saturated)
			saturated[b] = t;
	}
	for (size_t e = 0; e < fn->nedges && !rc; e++)
		rc = taint[e] ? (edge[e] = stuck, 0) : fit(val[e], &edge[e], r);
	free(src);
	free(dst);
	free(first);
	free(at);
	free(unknown);
	free(queue);
	free(val);
	free(known);
	free(taint);
	return rc;
}

bool roi_flow_counters_from_blocks(const struct roi_function *fn, const uint64_t *block, uint64_t stuck,
				   uint64_t *counters)
{
	uint64_t *edge = roi_xrealloc(NULL, fn->nedges + 1, sizeof *edge);
	uint64_t *again = roi_xrealloc(NULL, fn->nblocks, sizeof *again);
	struct roi_flow_result r;
	bool same = fn->on_edges;
	size_t k = 0;

	roi_flow_edges_from_blocks(fn, block, edge);
	for (size_t i = 0; same && i < fn->ncounted; i++, k++) {
		struct roi_edge_ref c = fn->counted[i];

		counters[k] = c.from < 0 ? block[c.succ] : edge[fn->blocks[c.from].edge + (size_t)c.succ];
	}
	for (size_t b = 0; same && b < fn->nblocks; b++)
		if (fn->blocks[b].value)
			counters[k++] = block[b];
	for (size_t i = 0; same && stuck && i < fn->ncounters; i++)
		same = counters[i] < stuck;
	same = same && roi_flow_solve(fn, counters, 0, again, edge, NULL, &r) == 0 && !r.negative &&
	       memcmp(again, block, fn->nblocks * sizeof *block) == 0;
	free(edge);
	free(again);
	return same;
}
