/* input/counts.c — joining a profile with a program's metadata, see counts.h. */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "input/counts.h"
#include "input/flow.h"

/* n zeroed elements of size bytes (one at least). */
static void *zeroed(size_t n, size_t size)
{
	void *p = roi_xrealloc(NULL, n ? n : 1, size);

	memset(p, 0, (n ? n : 1) * size);
	return p;
}

/* After a join that fails because the profile is another build's: a rebuilt program whose old
 * profile is still there. */
#define ANOTHER_BUILD " (profile from another build: run the program again for a new one)"

void roi_counts_init(struct roi_counts *c, const struct roi_program *prog)
{
	c->block = zeroed(prog->nblocks, sizeof *c->block);
	c->edge = zeroed(prog->nedges, sizeof *c->edge);
	c->saturated = zeroed(prog->nblocks, sizeof *c->saturated);
	c->counter = zeroed(prog->ncounters, sizeof *c->counter);
	c->raw = zeroed(prog->nfunctions, sizeof *c->raw);
	c->present = zeroed(prog->nfunctions, sizeof *c->present);
	c->nmissing = prog->nfunctions;
	c->nnegative = 0;
	c->first_negative = NULL;
	c->runs = 0;
	c->transferred = c->profile = NULL;
	c->region = roi_xrealloc(NULL, prog->nregions ? prog->nregions : 1, sizeof *c->region);
	memset(c->region, 0, prog->nregions * sizeof *c->region);
	c->nregions_ran = 0;
	c->time_unit = NULL;
	c->has_hook_cost = false;
	c->hook_cost = c->hook_inside = 0;
}

void roi_counts_free(struct roi_counts *c)
{
	free(c->block);
	free(c->edge);
	free(c->saturated);
	free(c->counter);
	free(c->raw);
	free(c->present);
	free(c->region);
	free(c->transferred);
	free(c->profile);
	memset(c, 0, sizeof *c);
}

int roi_counts_set(struct roi_counts *c, const struct roi_function *fn, const uint64_t *values, bool per_block,
		   uint64_t stuck)
{
	uint64_t *block = &c->block[fn->gblock0], *edge = &c->edge[fn->gedge0];
	bool *saturated = &c->saturated[fn->gblock0];
	struct roi_flow_result r;

	if (per_block) {
		memcpy(block, values, fn->nblocks * sizeof *block);
		for (size_t b = 0; b < fn->nblocks; b++)
			saturated[b] = stuck && block[b] == stuck;
		roi_flow_edges_from_blocks(fn, block, edge);
		c->raw[fn->gindex] = false;
	} else {
		memcpy(&c->counter[fn->gcounter0], values, fn->ncounters * sizeof *values);
		c->raw[fn->gindex] = true;
		if (roi_flow_solve(fn, values, stuck, block, edge, saturated, &r) != 0)
			return -1;
		if (r.negative && !c->nnegative)
			c->first_negative = fn;
		c->nnegative += r.negative;
	}
	if (!c->present[fn->gindex]) {
		c->present[fn->gindex] = true;
		c->nmissing--;
	}
	return 0;
}

/* What the estimator adds up over a whole program: operations (block count x a row's n), block
 * executions and edge executions. Every total it prints (per operation, line, function, loop,
 * region) is a part of one of these sums, so when these fit in 64 bits none of them can wrap. */
struct sums {
	uint64_t ops, blocks, edges;
};

/* Adds function fn's counts to *s; the name of the sum that overflowed, or NULL. */
static const char *add_function(struct sums *s, const struct roi_function *fn, const uint64_t *count,
				const uint64_t *edge)
{
	for (size_t b = 0; b < fn->nblocks; b++) {
		const struct roi_block *blk = &fn->blocks[b];
		uint64_t t;

		for (size_t r = 0; r < blk->nops; r++)
			if (__builtin_mul_overflow(count[b], blk->ops[r].n, &t) || __builtin_add_overflow(s->ops, t, &s->ops))
				return "operations";
		if (__builtin_add_overflow(s->blocks, count[b], &s->blocks))
			return "block executions";
	}
	for (size_t e = 0; e < fn->nedges; e++)
		if (__builtin_add_overflow(s->edges, edge[e], &s->edges))
			return "edge executions";
	return NULL;
}

int roi_counts_join(struct roi_counts *c, const struct roi_program *prog, const struct roi_profile *prof,
		    struct roi_err *err)
{
	struct sums sums = {0, 0, 0};
	uint64_t region_calls = 0;
	const char *what;

	roi_counts_init(c, prog);
	c->runs = prof->runs;
	if ((prof->transferred && !(c->transferred = strdup(prof->transferred))) || !(c->profile = strdup(prof->path)))
		abort();
	for (size_t i = 0; i < prof->nfns; i++) {
		const struct roi_profile_fn *pf = &prof->fns[i];
		const struct roi_unit *u = roi_program_unit(prog, pf->rec.unit);
		const struct roi_function *fn;

		if (!u)
			return roi_err_set(err, "%s: unit %016llx is not in %s" ANOTHER_BUILD, prof->path,
					   (unsigned long long)pf->rec.unit, prog->path);
		if (pf->rec.index >= u->nfunctions)
			return roi_err_set(err, "%s: function %u of unit %s is not in %s" ANOTHER_BUILD,
					   prof->path, (unsigned)pf->rec.index, u->id_hex, prog->path);
		fn = &u->functions[pf->rec.index];
		/* (a function counted on edges: its counters, or a count per block, as roi transfer
		 * writes, under the checksum it would have counted per block) */
		bool per_block = fn->on_edges && pf->rec.checksum != fn->checksum &&
				 pf->rec.checksum == fn->block_checksum;
		size_t want = per_block || !fn->on_edges ? fn->nblocks : fn->ncounters;
		if (pf->rec.checksum != fn->checksum && !per_block)
			return roi_err_set(err, "%s: function %s (unit %s) does not match %s: checksum 0x%08x != 0x%08x"
					   ANOTHER_BUILD, prof->path, fn->name, u->id_hex, prog->path,
					   (unsigned)pf->rec.checksum, (unsigned)fn->checksum);
		if (pf->rec.ncounters != want)
			return roi_err_set(err, "%s: function %s (unit %s) does not match %s: %zu counters != %zu %s"
					   ANOTHER_BUILD, prof->path, fn->name, u->id_hex, prog->path,
					   (size_t)pf->rec.ncounters, want, fn->on_edges && !per_block ? "counters" : "blocks");
		if (roi_counts_set(c, fn, pf->counts, per_block, u->counter_bits == 16 ? 0xffff : 0) != 0)
			what = "block executions";
		else
			what = add_function(&sums, fn, &c->block[fn->gblock0], &c->edge[fn->gedge0]);
		if (what)
			return roi_err_set(err, "%s: function %s (unit %s): the program's %s overflow 64 bits (damaged or "
					   "edited profile?)", prof->path, fn->name, u->id_hex, what);
	}
	for (size_t i = 0; i < prof->timing.nregions; i++) {
		const struct roi_profile_region *pr = &prof->timing.regions[i];
		const struct roi_unit *u = roi_program_unit(prog, pr->rec.unit);

		if (!u || pr->rec.index >= u->nregions)
			return roi_err_set(err, "%s:%u: region %u of unit %016llx is not in %s" ANOTHER_BUILD,
					   prof->path, pr->line, (unsigned)pr->rec.index, (unsigned long long)pr->rec.unit,
					   prog->path);
		if (__builtin_add_overflow(region_calls, pr->rec.calls, &region_calls))
			return roi_err_set(err, "%s:%u: region %u of unit %s: the program's region calls overflow 64 bits "
					   "(damaged or edited profile?)", prof->path, pr->line, (unsigned)pr->rec.index, u->id_hex);
		c->region[u->regions[pr->rec.index].gindex] = (struct roi_region_result){true, pr->rec.calls, pr->rec.total,
											       pr->rec.inner, pr->rec.has_inner};
		c->nregions_ran++;
	}
	c->time_unit = prof->timing.unit;
	c->has_hook_cost = prof->timing.has_hook_cost;
	c->hook_cost = prof->timing.hook_cost;
	c->hook_inside = prof->timing.hook_inside;
	return 0;
}
