/* run/qemu.h — "roi run --target cortex-m": runs an ARM Cortex-M firmware under qemu-system-arm,
 * stops it at _exit through QEMU's gdbstub, reads the counter arrays out of the emulated RAM and
 * writes the profile; QEMU's icount gives the executed instruction count. See docs/run.md. */
#ifndef ROI_RUN_QEMU_H
#define ROI_RUN_QEMU_H

#include <stdbool.h>

/* What builtin/run.c parsed: option values as given, NULL when absent. */
struct roi_qemu_args {
	const char *cmd;                /* argv[0], for usage errors */
	const char *firmware;           /* the ELF; NULL when missing */
	const char *machine;            /* QEMU machine (default mps2-an386) */
	const char *max_seconds;        /* wall-clock limit (default 60, 0 for none) */
	const char *output;             /* profile path (default FIRMWARE.roi) */
	const char *foreign_option;     /* an option of another target that was given ("--mcu"), or NULL */
	bool json;
	bool cycles_only;               /* a firmware without roi: its instruction count and status only */
};

/* The whole command for this target: usage errors (exit 2), the run, the report on stdout in the
 * form of the AVR target's, errors on stderr (exit 1). QEMU never outlives the call. */
int roi_run_cortex_m(const struct roi_qemu_args *args);

#endif
