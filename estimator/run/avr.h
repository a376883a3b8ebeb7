/* run/avr.h — running an AVR firmware to its end in simavr (libsimavr), for "roi run --target avr".
 *
 * The firmware carries no roi runtime: the caller reads the counter arrays out of the copy of the
 * data memory taken when the firmware stops. */
#ifndef ROI_RUN_AVR_H
#define ROI_RUN_AVR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/* The GNU tools place AVR data addresses at this offset in the ELF (symbol values, .bss, .data);
 * the simulator's data memory is indexed without it. */
#define ROI_AVR_DATA_OFFSET 0x800000u

enum roi_avr_stop {
	ROI_AVR_EXIT,           /* at "cli; rjmp ." with interrupts off: how avr-libc's exit() ends */
	ROI_AVR_SLEEP,          /* "sleep" with interrupts off: simavr's own graceful end (cpu_Done) */
	ROI_AVR_LIMIT,          /* still running when max_cycles were simulated */
	ROI_AVR_SYMBOL,         /* at stop_pc for the stop_hits-th time, before running it */
};

/* One simulated step, as a tracer sees it (roi run --measured): the instruction that ran, what it
 * took and where it went. A step in which the core slept ran no instruction; its cycles are the
 * sleep's, and pc is the sleep instruction's. */
struct roi_avr_step {
	uint32_t pc;            /* byte address of the instruction */
	uint32_t next;          /* byte address of the next instruction to run; when an interrupt was
				 * taken after this one, the address the interrupt returns to */
	uint64_t cycle;         /* simavr's cycle counter after the step */
	uint64_t cycles;        /* the step's cycles */
	uint16_t op;            /* the instruction's first word */
	uint16_t sp;            /* the stack pointer after the instruction, before an interrupt's push */
	bool asleep;            /* no instruction ran: the core slept */
	bool interrupt;         /* an interrupt was taken after the instruction: the core is at vector */
	uint32_t vector;        /* the vector's byte address */
};

struct roi_avr_tracer {
	void (*step)(void *ctx, const struct roi_avr_step *s);
	void *ctx;
	uint8_t address_size;   /* out: bytes of a return address on the stack (2, or 3 above 128 KiB) */
	uint32_t flash_size;    /* out: bytes of flash of the simulated part */
	const uint8_t *flash;   /* out: the flash as loaded, valid during the run */
};

/* Region hooks of runtime/ports/roi-region-simavr.c: the region's address in GPIOR1 (low) and
 * GPIOR2 (high), then the event in GPIOR0. Data addresses, the same on every megaAVR with GPIORs. */
#define ROI_AVR_GPIOR0 0x3eu
#define ROI_AVR_GPIOR1 0x4au
#define ROI_AVR_GPIOR2 0x4bu

/* One region hook the firmware ran, stamped with simavr's cycle counter. */
struct roi_avr_event {
	uint64_t cycle;
	uint16_t region;        /* the descriptor's data address (without ROI_AVR_DATA_OFFSET) */
	uint8_t code;           /* 1 enter, 2 exit */
};

struct roi_avr_run {
	const char *elf;        /* in: an AVR ELF (checked to be one by the caller: simavr trusts it) */
	const char *mcu;        /* in: simavr core name, see roi_avr_check_mcu */
	uint32_t freq_hz;       /* in: clock frequency, for simavr's timers and the time in messages */
	uint64_t max_cycles;    /* in; 0: load the firmware and stop before its first instruction */
	uint64_t cycles;        /* out: simulated cycles until the stop */
	uint64_t main_cycle;    /* out: the cycle main's first instruction ran at (the C start-up before
				 * it: stack, .data copy, .bss clear); valid when main_seen */
	bool main_seen;         /* out: the firmware has a symbol main and reached it */
	uint16_t stack_low;     /* out: the lowest stack pointer from main's first instruction on, the
				 * next free byte below the stack (0xffff before main) */
	enum roi_avr_stop stop; /* out */
	uint8_t *data;          /* out: the data memory at the stop (registers, I/O, SRAM) */
	size_t data_size;       /* out: RAMEND + 1 bytes */
	/* out: what the hook calls cost, measured around each: from the argument set-up (ldi r24/r25)
	 * before the call to the instruction after it returned. "before" and "after" split a hook at
	 * its GPIOR0 write, the cycle the event is stamped with. */
	struct roi_avr_hook_cost {
		uint64_t calls, cycles, before, after;
	} hook_enter, hook_exit;
	/* in, optional: cycles per instruction address (bytes; pc_cycles_size long), added to from
	 * main's first instruction on, for calibration to give them to source lines. An instruction
	 * at an address not in pc_owned (a library routine's) adds to the owned one that ran last,
	 * its caller (without pc_owned every address is its own). */
	uint64_t *pc_cycles;
	const bool *pc_owned;
	size_t pc_cycles_size;
	/* in, optional: called after every step from the first instruction on (roi run --measured) */
	struct roi_avr_tracer *tracer;
	/* in, optional: stop (ROI_AVR_SYMBOL) before the instruction at byte address stop_pc runs for
	 * the stop_hits-th time; stop_hits 0: no such stop */
	uint32_t stop_pc;
	uint64_t stop_hits;
	bool progress;          /* in: the simulated cycles on stderr every second or so */
	struct roi_avr_event *events;   /* out: region hooks in the order they ran */
	size_t nevents, events_cap;
	bool events_lost;       /* out: out of memory while recording: events incomplete */
};

/* "unknown MCU 'X' (simavr knows atmega128, ... and N more: 'simavr --list-cores')". */
int roi_avr_check_mcu(const char *mcu, struct roi_err *err);

/* Loads run->elf into a simulated run->mcu and runs it until it stops or hits the limit (both
 * return 0, see run->stop). Errors: "ELF: simavr cannot load it", "ELF: the firmware crashed at
 * PC 0x00de after 36 cycles (simavr: <its message>)". Free with roi_avr_run_free even on failure. */
int roi_avr_run(struct roi_avr_run *run, struct roi_err *err);
void roi_avr_run_free(struct roi_avr_run *run);

/* The firmware's exit status: exit()'s argument, the C int in r25:r24 when it stopped at exit
 * (stop ROI_AVR_EXIT, data_size > 25). */
int roi_avr_exit_status(const struct roi_avr_run *run);

#endif
