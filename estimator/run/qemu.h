/* run/qemu.h — "roi run --target cortex-m": an ARM Cortex-M firmware run under qemu-system-arm,
 * stopped at _exit through QEMU's gdbstub, its counter arrays read out of the emulated RAM and its
 * profile written; QEMU's icount gives the executed instruction count. See docs/run.md. */
#ifndef ROI_RUN_QEMU_H
#define ROI_RUN_QEMU_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "base/err.h"
#include "input/counts.h"
#include "input/meta.h"
#include "run/common.h"

/* Where the firmware is stopped: newlib's _exit, whose argument is the exit status. */
#define ROI_QEMU_STOP_SYMBOL "_exit"

struct roi_qemu_run {
	/* in, set by the caller after roi_qemu_init */
	const char *elf, *machine;      /* the firmware; the QEMU machine (default mps2-an386) */
	const char *output;             /* where the profile goes */
	bool plain;                     /* --cycles-only: no metadata, no counters, no profile */
	double max_seconds;             /* host time allowed (default 60); 0: no limit */
	/* out */
	struct roi_program prog;
	struct roi_counter_array *ctr;  /* [prog.nfunctions] */
	struct roi_counts counts;       /* once read */
	int exit_status;                /* r0 at _exit */
	uint64_t instructions;
	char no_instructions[256];      /* why there is no count, "" when there is one */
	/* the QEMU session, qemu.c's own */
	uint64_t stop_addr;             /* _exit, Thumb bit cleared */
	pid_t pid;
	char dir[80];
	int gdb_fd, qmp_fd;
	struct timespec deadline;
};

void roi_qemu_init(struct roi_qemu_run *r);
/* Checks the firmware (an ARM ELF with roi metadata, _exit and its counter arrays; only the first
 * two with plain), runs it to _exit and, unless plain, writes the profile. QEMU never outlives the
 * call. Free r with roi_qemu_free, also on failure. */
int roi_qemu_run(struct roi_qemu_run *r, struct roi_err *err);
void roi_qemu_free(struct roi_qemu_run *r);

#endif
