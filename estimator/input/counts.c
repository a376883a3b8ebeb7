/* input/counts.c — joining a profile with a program's metadata, see counts.h. */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "input/counts.h"

/* After a join that fails because the profile is another build's: a rebuilt program whose old
 * profile is still there. */
#define ANOTHER_BUILD " (profile from another build: run the program again for a new one)"

void roi_counts_init(struct roi_counts *c, const struct roi_program *prog)
{
	c->block = roi_xrealloc(NULL, prog->nblocks, sizeof *c->block);
	c->present = roi_xrealloc(NULL, prog->nfunctions, sizeof *c->present);
	memset(c->block, 0, prog->nblocks * sizeof *c->block);
	memset(c->present, 0, prog->nfunctions * sizeof *c->present);
	c->nmissing = prog->nfunctions;
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
	free(c->present);
	free(c->region);
	free(c->transferred);
	free(c->profile);
	memset(c, 0, sizeof *c);
}

/* What the estimator adds up over a whole program: operations (block count x a row's n), block
 * executions and edge executions (formats.md §1: an edge out of a block with one successor
 * carries that block's count, any other its target's). Every total it prints (per operation,
 * line, function, loop, region) is a part of one of these sums, so when these fit in 64 bits
 * none of them can wrap. */
struct sums {
	uint64_t ops, blocks, edges;
};

/* Adds function fn's counts to *s; the name of the sum that overflowed, or NULL. */
static const char *add_function(struct sums *s, const struct roi_function *fn, const uint64_t *count)
{
	for (size_t b = 0; b < fn->nblocks; b++) {
		const struct roi_block *blk = &fn->blocks[b];
		uint64_t t;

		for (size_t r = 0; r < blk->nops; r++)
			if (__builtin_mul_overflow(count[b], blk->ops[r].n, &t) || __builtin_add_overflow(s->ops, t, &s->ops))
				return "operations";
		if (__builtin_add_overflow(s->blocks, count[b], &s->blocks))
			return "block executions";
		for (size_t e = 0; e < blk->nsucc; e++) {
			int to = blk->succ[e];

			t = blk->nsucc == 1 || to < 0 ? count[b] : count[to];
			if (__builtin_add_overflow(s->edges, t, &s->edges))
				return "edge executions";
		}
	}
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
		if (pf->rec.checksum != fn->checksum)
			return roi_err_set(err, "%s: function %s (unit %s) does not match %s: checksum 0x%08x != 0x%08x"
					   ANOTHER_BUILD, prof->path, fn->name, u->id_hex, prog->path,
					   (unsigned)pf->rec.checksum, (unsigned)fn->checksum);
		if (pf->rec.ncounters != fn->nblocks)
			return roi_err_set(err, "%s: function %s (unit %s) does not match %s: %zu counters != %zu blocks"
					   ANOTHER_BUILD, prof->path, fn->name, u->id_hex, prog->path,
					   (size_t)pf->rec.ncounters, fn->nblocks);
		if ((what = add_function(&sums, fn, pf->counts)))
			return roi_err_set(err, "%s: function %s (unit %s): the program's %s overflow 64 bits (damaged or "
					   "edited profile?)", prof->path, fn->name, u->id_hex, what);
		memcpy(&c->block[fn->gblock0], pf->counts, fn->nblocks * sizeof *c->block);
		c->present[fn->gindex] = true;
		c->nmissing--;
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
