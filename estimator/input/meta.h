/* input/meta.h — a program as its .roi.meta records describe it (docs/formats.md §1).
 *
 * A program is the union of its units (one record per translation unit). Everything is
 * validated on load, so users of these structs may index without checks: op, file and
 * successor indices are in range, every function has at least one block. */
#ifndef ROI_META_H
#define ROI_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "input/types.h"

struct roi_unit;

/* One entry of a unit's operation table. Absent fields are NULL / false / -1. */
struct roi_op {
	const char *kind;               /* one of roi_kinds */
	const char *type, *ctype;       /* computed type and C type; calls have none */
	const char *access;             /* load/store: var array field bitfield deref */
	const char *callee;             /* call: name or "*indirect" */
	const char *from, *from_ctype;  /* conv: source type */
	const char *code;               /* vec/other: GCC tree code */
	const char *operand;            /* the operand kind that decides the code (types.h) */
	long long subscripts;           /* load/store of a multi-dimensional array: 2 or more; else 0 */
	bool is_volatile, direct, builtin, internal;
	long long bytes, cases;         /* copy size, switch labels; -1 when absent */
	long long promoted;             /* an int operation on operands promoted from an unsigned type
					 * of this width (formats.md); 0 when absent */
};

struct roi_line {
	unsigned file, line;            /* file indexes the unit's files */
};

struct roi_op_row {
	unsigned op, file, line;        /* op indexes the unit's ops */
	uint64_t n;                     /* executions per execution of the block */
};

struct roi_block {
	const int *succ;                /* successor block indices, -1 = function exit */
	size_t nsucc;
	const struct roi_line *lines;
	size_t nlines;
	const struct roi_op_row *ops;
	size_t nops;
	bool labels;                    /* labels alone, split off the block it leads to (formats.md) */
	bool value;                     /* a value counter: its count is a sum of run-time values, not
					 * executions, and no edge reaches it (formats.md) */
	long long site;                 /* a value counter's: the block of the statement it measures;
					 * -1 when the metadata does not say */
	bool branch;                    /* a value counter of how often a statement's branch inside its
					 * block ran its arm ("taken"): what --price machine prices that
					 * branch by; its row is not an operation and is dropped (nops 0) */
	bool branch_move;               /* a branch counter's statement is a minimum or maximum: its arm
					 * moves the other operand in (else a fix-up that computes) */
	bool fake;                      /* it may leave the function other than by its successors: a
					 * call that does not return ("fake"; input/flow.h) */
	size_t edge;                    /* the number of its first edge in its function (input/flow.h) */
};

/* A counted edge (metadata "edges"): block from's successor number succ; from -1: the entries of
 * block succ (of block 0: the function's calls). */
struct roi_edge_ref {
	int from, succ;
};

/* A source location that a block evaluates: one of its statements', or a PHI argument's on its way
 * out (metadata "locs"; 'roi transfer' matches builds by them). Column and inlined copy tell
 * apart the expressions of a line and the copies of an inlined function; where the statement is a
 * macro's, its spelling in the macro tells apart the statements of one use of it. */
struct roi_loc {
	size_t block;                   /* counter index; a value counter's: its statement's location */
	unsigned file, line, column;
	unsigned instance;              /* 0: the function's own code; n: its n-th inlined copy */
	unsigned mfile, mline, mcolumn; /* a macro's token: where the macro spells it; mline 0: none */
};

/* One loop of a function's nest (docs/regions.md, "loops"). */
struct roi_loop {
	size_t header;                  /* counter index of the header block */
	int parent;                     /* index into the function's loops; -1: outermost */
	unsigned file, line;            /* the header's first line */
	const size_t *blocks;           /* counter indices, inner loops' blocks included; has header */
	size_t nblocks;
};

/* What GCC says of a function's stack figure (-fstack-usage's "static", "dynamic,bounded",
 * "dynamic"). */
enum roi_stack_kind {
	ROI_STACK_STATIC,               /* the prologue's allocation, exactly */
	ROI_STACK_BOUNDED,              /* with arguments pushed or a bounded alloca: a bound */
	ROI_STACK_UNBOUNDED,            /* alloca or a VLA of a run-time size: a lower bound */
};

struct roi_function {
	const struct roi_unit *unit;
	size_t index;                   /* position in the unit's functions = profile INDEX */
	const char *name, *asm_name;
	unsigned file, line;
	bool is_static;
	const char *counters;           /* symbol of the counter array */
	uint32_t checksum;
	const char *const *inlined;     /* assembler names GCC inlined into it (optional field) */
	size_t ninlined;
	const struct roi_block *blocks; /* block 0 is the entry; counter i, when !on_edges */
	size_t nblocks;
	bool on_edges;                  /* counted on the edges off a spanning tree ("edges"), not a
					 * counter per block (input/flow.h) */
	const struct roi_edge_ref *counted;     /* on_edges: counter i counts edge counted[i] */
	size_t ncounted;
	size_t ncounters;               /* the profile's counters: the counted edges' then the value
					 * counters', or one per entry of blocks */
	size_t nedges;                  /* its edges, fake ones included (input/flow.h) */
	uint32_t block_checksum;        /* the checksum it would have with a counter per block (its
					 * blocks' alone): a profile line of one count per block has it */
	const struct roi_loc *locs;     /* (optional field: has_locs) */
	size_t nlocs;
	bool has_locs;
	const struct roi_loop *loops;   /* the loop nest (optional field: has_loops) */
	size_t nloops;
	bool has_loops;
	long long stack;                /* bytes of stack a call takes, GCC's -fstack-usage figure
					 * (metadata "stack"); -1: not recorded (an older record, a
					 * naked function) */
	enum roi_stack_kind stack_dynamic;
	size_t gindex;                  /* position among all functions of the program */
	size_t gblock0;                 /* program-wide number of block 0 (see struct roi_counts) */
	size_t gedge0, gcounter0;       /* program-wide numbers of its first edge and counter */
};

enum roi_region_kind { ROI_REGION_FUNCTION = 1, ROI_REGION_LOOP = 2 };

/* A function or loop with enter/exit hooks (docs/regions.md, "regions"). */
struct roi_region {
	const struct roi_unit *unit;
	size_t index;                   /* position in the unit's regions = profile INDEX */
	enum roi_region_kind kind;
	const char *name;               /* "main", "main:22" */
	long function;                  /* index into the unit's functions; -1: not counted */
	unsigned file, line;
	long header;                    /* loops: counter index of the header; -1 otherwise */
	const char *symbol;             /* the descriptor's symbol */
	size_t gindex;                  /* position among all regions of the program */
};

/* A rule of the filter file the unit was compiled with, and whether it matched in this unit. */
struct roi_filter_rule {
	unsigned line;
	const char *text;
	bool matched;
};

struct roi_filter {
	const char *path;
	const struct roi_filter_rule *rules;
	size_t nrules;
};

/* A function the filter left uncounted (docs/regions.md, "excluded"). */
struct roi_excluded {
	const char *name, *asm_name;
	unsigned file, line;
	unsigned rule;                  /* the filter line that excluded it */
};

struct roi_unit {
	uint64_t id;
	char id_hex[17];
	size_t record;                  /* 1-based record number in .roi.meta */
	const char *source, *source_abs, *compiler, *target, *opt, *runtime;
	int counter_bits;
	bool atomic;
	bool debug;                     /* compiled with debug information ("debug"; true when absent) */
	struct roi_abi abi;
	const char *const *files;
	size_t nfiles;
	const struct roi_op *ops;
	size_t nops;
	const struct roi_function *functions;
	size_t nfunctions;
	const struct roi_region *regions;       /* optional fields: absent means none */
	size_t nregions;
	const struct roi_filter *filter;        /* NULL: compiled without a filter */
	const struct roi_excluded *excluded;
	size_t nexcluded;
};

struct roi_program {
	const char *path;
	const struct roi_unit *units;
	size_t nunits;
	size_t nfunctions;              /* over all units */
	size_t nblocks;                 /* over all functions */
	size_t nedges, ncounters;       /* over all functions */
	size_t nregions;                /* over all units */
	struct roi_arena arena;
};

/* Opens the ELF at path and loads every record. Errors name the file and, for a bad record,
 * "PATH: .roi.meta record N: <field>: <what>". Free with roi_program_free even on failure. */
/* Whether op is one roi adds from what the compiler knows after register allocation (save, frame,
 * spill: docs/formats.md), not a statement's. */
bool roi_op_is_added(const struct roi_op *op);
int roi_program_load(const char *path, struct roi_program *prog, struct roi_err *err);

/* Loads from records already read (records[i] is record i+1); "path" names them in messages. */
int roi_program_from_records(const char *path, const char *const *text, size_t nrecords,
			     struct roi_program *prog, struct roi_err *err);

void roi_program_free(struct roi_program *prog);

/* The unit with that id, or NULL. */
const struct roi_unit *roi_program_unit(const struct roi_program *prog, uint64_t id);

/* The value all units share for a string field (offsetof(struct roi_unit, target), ...), or
 * "mixed" when they differ; "" without units. */
const char *roi_program_common(const struct roi_program *prog, size_t field_offset);

#endif
