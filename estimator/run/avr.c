/* run/avr.c — an AVR firmware run in libsimavr, see run/avr.h. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sim_avr.h>
#include <sim_core_decl.h>
#include <sim_elf.h>

#include "input/elffile.h"
#include "run/avr.h"

/* simavr reports through one process-wide logger, to stdout and stderr by default. roi keeps its
 * error messages (to quote when the firmware crashes) and drops the rest: loading notes, the
 * firmware's UART output and traces would mix with roi's own output. */
static char simavr_said[512];

static void keep_errors(avr_t *avr, const int level, const char *fmt, va_list ap)
{
	char line[256];
	size_t n = strlen(simavr_said);

	(void)avr;
	if (level > LOG_ERROR)
		return;
	vsnprintf(line, sizeof line, fmt, ap);
	/* Drop the colour escapes and line breaks; "avr_sadly_crashed" says nothing the caller won't. */
	for (char *s = line, *d = line;; s++) {
		if (*s == '\033')
			s += strcspn(s, "m");
		else if (*s != '\n' && *s != '\r')
			*d++ = *s;
		if (!*s) {
			*d = '\0';
			break;
		}
	}
	if (!*line || strcmp(line, "avr_sadly_crashed") == 0 || n + 3 >= sizeof simavr_said)
		return;
	snprintf(simavr_said + n, sizeof simavr_said - n, "%s%s", n ? "; " : "", line);
}

/* Simulated sleep lasts no wall-clock time: the default callback paces the run in real time. */
static void no_sleep(avr_t *avr, avr_cycle_count_t how_long)
{
	(void)avr;
	(void)how_long;
}

/* A write to GPIOR0 is a region event: the hooks wrote the region's address to GPIOR1/2 just
 * before. The cycle counter at this write is exact, so measuring costs no error, only the
 * constant cycles the hook instructions themselves take. */
static void region_event(avr_t *avr, avr_io_addr_t addr, uint8_t value, void *param)
{
	struct roi_avr_run *run = param;

	avr->data[addr] = value;        /* a watched register is not stored by simavr itself */
	if (value != 1 && value != 2)
		return;
	if (run->nevents == run->events_cap) {
		size_t cap = run->events_cap ? 2 * run->events_cap : 1024;
		struct roi_avr_event *e = realloc(run->events, cap * sizeof *e);
		if (!e) {
			run->events_lost = true;
			return;
		}
		run->events = e;
		run->events_cap = cap;
	}
	run->events[run->nevents++] = (struct roi_avr_event){
		avr->cycle, (uint16_t)(avr->data[ROI_AVR_GPIOR1] | avr->data[ROI_AVR_GPIOR2] << 8), value};
}

static const avr_kind_t *find_kind(const char *mcu)
{
	for (size_t i = 0; avr_kind[i]; i++)
		for (size_t k = 0; k < 4 && avr_kind[i]->names[k]; k++)
			if (strcmp(avr_kind[i]->names[k], mcu) == 0)
				return avr_kind[i];
	return NULL;
}

int roi_avr_check_mcu(const char *mcu, struct roi_err *err)
{
	char known[256] = "";
	size_t n = 0, len = 0;

	if (find_kind(mcu))
		return 0;
	for (; avr_kind[n]; n++)
		if (n < 8)
			len += (size_t)snprintf(known + len, sizeof known - len, "%s, ", avr_kind[n]->names[0]);
	return roi_err_set(err, "unknown MCU '%s' (simavr knows %s... %zu in all: 'simavr --list-cores')", mcu, known,
			   n);
}

/* At "cli; rjmp ." with interrupts off: nothing can ever leave this loop. avr-libc's exit() ends so
 * (libgcc's _exit and __stop_program); simavr 1.6 itself would run it forever. */
static bool at_exit_loop(const avr_t *avr)
{
	avr_flashaddr_t pc = avr->pc;

	return !avr->sreg[S_I] && pc >= 2 && pc + 1 <= avr->flashend && avr->flash[pc] == 0xff &&
	       avr->flash[pc + 1] == 0xcf && avr->flash[pc - 2] == 0xf8 && avr->flash[pc - 1] == 0x94;
}

/* A function's byte address in the flash, from simavr's copy of the symbol table; -1 when none. */
static long symbol_address(const elf_firmware_t *fw, const char *name)
{
	for (uint32_t i = 0; i < fw->symbolcount; i++)
		if (strcmp(fw->symbol[i]->symbol, name) == 0)
			return (long)fw->symbol[i]->addr;
	return -1;
}

/* Where the simulation is: the last instructions run (to find a hook call's argument set-up) and
 * the hook call under way. */
struct watch {
	long main_pc, enter_pc, exit_pc;
	struct { avr_flashaddr_t pc; avr_cycle_count_t cycle; } last[3];   /* [0]: the latest */
	struct roi_avr_hook_cost *hook;         /* the call under way, or NULL */
	avr_flashaddr_t return_pc;
	uint16_t return_sp;
	uint64_t start;
	size_t events_before;
	avr_flashaddr_t owner;                  /* the last owned address that ran (pc_owned) */
};

#define ROI_AVR_SPL 0x5du
#define ROI_AVR_SPH 0x5eu

static uint16_t stack_pointer(const avr_t *avr)
{
	return (uint16_t)(avr->data[ROI_AVR_SPL] | avr->data[ROI_AVR_SPH] << 8);
}

/* "ldi r24, K" or "ldi r25, K": how the hook's argument, the region's address, is loaded. */
static bool loads_argument(const avr_t *avr, avr_flashaddr_t pc)
{
	uint16_t op = (uint16_t)(avr->flash[pc] | avr->flash[pc + 1] << 8);
	unsigned d = 16 + ((op >> 4) & 0xf);

	return (op & 0xf000) == 0xe000 && (d == 24 || d == 25);
}

/* Before each instruction: main reached, a hook entered (the previous instruction called it), a
 * hook returned (back at the return address with the stack as before the call). */
static void watch_step(avr_t *avr, struct watch *w, struct roi_avr_run *run)
{
	avr_flashaddr_t pc = avr->pc;

	if (!run->main_seen && (long)pc == w->main_pc) {
		run->main_seen = true;
		run->main_cycle = avr->cycle;
	}
	if (!w->hook && ((long)pc == w->enter_pc || (long)pc == w->exit_pc) && w->last[0].cycle) {
		w->hook = (long)pc == w->enter_pc ? &run->hook_enter : &run->hook_exit;
		uint16_t op = (uint16_t)(avr->flash[w->last[0].pc] | avr->flash[w->last[0].pc + 1] << 8);
		w->return_pc = w->last[0].pc + ((op & 0xfe0e) == 0x940e ? 4 : 2);   /* call: two words */
		w->return_sp = (uint16_t)(stack_pointer(avr) + avr->address_size);
		w->start = w->last[0].cycle;
		for (int i = 1; i < 3 && w->last[i].cycle && w->last[i].pc + 2 == w->last[i - 1].pc &&
				loads_argument(avr, w->last[i].pc); i++)
			w->start = w->last[i].cycle;
		w->events_before = run->nevents;
	} else if (w->hook && pc == w->return_pc && stack_pointer(avr) == w->return_sp) {
		struct roi_avr_hook_cost *h = w->hook;

		h->calls++;
		h->cycles += avr->cycle - w->start;
		if (run->nevents > w->events_before) {
			uint64_t stamp = run->events[run->nevents - 1].cycle;
			h->before += stamp - w->start;
			h->after += avr->cycle - stamp;
		}
		w->hook = NULL;
	}
	memmove(&w->last[1], &w->last[0], 2 * sizeof w->last[0]);
	w->last[0].pc = pc;
	w->last[0].cycle = avr->cycle;
}

/* Whether the core, after a step that began with interrupts enabled, is at an interrupt vector
 * with them disabled: simavr serviced an interrupt after the instruction (sim_interrupts.c pushes
 * the return address, clears I and jumps to the vector). Reset (vector 0) is no interrupt. */
static bool took_interrupt(const avr_t *avr, bool i_before)
{
	avr_flashaddr_t pc = avr->pc;

	return i_before && !avr->sreg[S_I] && pc != 0 && avr->vector_size && pc % avr->vector_size == 0 &&
	       pc / avr->vector_size < avr->interrupts.vector_count + 1u;
}

/* The return address an interrupt pushed: the top of the stack, high byte first from SP + 1, in
 * words. */
static uint32_t pushed_return(const avr_t *avr)
{
	uint16_t sp = stack_pointer(avr);
	uint32_t a = 0;

	for (int i = 1; i <= avr->address_size; i++)
		a = a << 8 | avr->data[(uint16_t)(sp + i)];
	return a * 2;
}

static void trace_step(avr_t *avr, struct roi_avr_run *run, avr_flashaddr_t pc, bool asleep, bool i_before,
		       avr_cycle_count_t before)
{
	struct roi_avr_step s = {
		.pc = (uint32_t)pc, .next = (uint32_t)avr->pc, .cycle = avr->cycle,
		.cycles = avr->cycle - before, .sp = stack_pointer(avr), .asleep = asleep,
	};

	if (pc + 1 <= avr->flashend)
		s.op = (uint16_t)(avr->flash[pc] | avr->flash[pc + 1] << 8);
	if (took_interrupt(avr, i_before)) {
		s.interrupt = true;
		s.vector = (uint32_t)avr->pc;
		s.next = pushed_return(avr);
		s.sp = (uint16_t)(s.sp + avr->address_size);
	}
	run->tracer->step(run->tracer->ctx, &s);
}

/* "roi run: fw.elf: 12.5 M cycles" on stderr, over itself on a terminal. */
static void show_progress(const struct roi_avr_run *run, uint64_t cycle, bool last)
{
	bool tty = isatty(STDERR_FILENO);

	if (last) {
		if (tty)
			fputs("\r\033[K", stderr);
		return;
	}
	fprintf(stderr, "%sroi run: %s: %.1f M cycles", tty ? "\r\033[K" : "", run->elf, (double)cycle / 1e6);
	if (run->max_cycles < UINT64_MAX)
		fprintf(stderr, " (%.0f%% of --max-cycles)", 100.0 * (double)cycle / (double)run->max_cycles);
	fputs(tty ? "" : "\n", stderr);
	fflush(stderr);
}

static int simulate(avr_t *avr, struct watch *w, struct roi_avr_run *run, struct roi_err *err)
{
	avr_flashaddr_t last_pc = 0;    /* of the last instruction that ran: a sleep's cycles are its */
	uint64_t hits = 0, steps = 0;
	time_t shown = time(NULL);

	/* max_cycles 0 stops before the first instruction: a load without a run (fuzz/avr_elf.c). */
	run->stop = ROI_AVR_LIMIT;
	while (run->max_cycles > 0) {
		avr_flashaddr_t pc = avr->pc;   /* of the instruction run now, to name it if it crashes */
		bool asleep = avr->state == cpu_Sleeping, i_before = avr->sreg[S_I];

		if (run->stop_hits && pc == run->stop_pc && !asleep && ++hits == run->stop_hits) {
			run->stop = ROI_AVR_SYMBOL;
			break;
		}
		avr_cycle_count_t before = avr->cycle;

		watch_step(avr, w, run);
		int state = avr_run(avr);

		/* (before a crash is reported: a stack run into the data is what a runner says then) */
		if (run->main_seen && stack_pointer(avr) < run->stack_low)
			run->stack_low = stack_pointer(avr);

		if (run->pc_cycles && run->main_seen && pc < run->pc_cycles_size) {
			if (!run->pc_owned || run->pc_owned[pc])
				w->owner = pc;
			run->pc_cycles[w->owner] += avr->cycle - before;
		}
		if (!asleep)
			last_pc = pc;
		if (run->tracer && state != cpu_Crashed)
			trace_step(avr, run, asleep ? last_pc : pc, asleep, i_before, before);
		if (run->progress && (++steps & 0xfffff) == 0 && (steps == 0x100000 || time(NULL) != shown)) {
			shown = time(NULL);
			show_progress(run, avr->cycle, false);
		}

		if (state == cpu_Done) {
			run->stop = ROI_AVR_SLEEP;
			break;
		}
		if (state == cpu_Crashed || state == cpu_Stopped)
			return roi_err_set(err, "%s: the firmware crashed at PC 0x%04x after %llu cycles (simavr: %s)",
					   run->elf, (unsigned)pc, (unsigned long long)avr->cycle,
					   *simavr_said ? simavr_said
					   : pc > avr->flashend ? "ran off the end of the flash"
					   : state == cpu_Crashed ? "crashed" : "stopped");
		if (at_exit_loop(avr)) {
			run->stop = ROI_AVR_EXIT;
			break;
		}
		if (avr->cycle >= run->max_cycles) {
			run->stop = ROI_AVR_LIMIT;
			break;
		}
	}
	if (run->progress)
		show_progress(run, avr->cycle, true);
	run->cycles = avr->cycle;
	run->data_size = (size_t)avr->ramend + 1;
	run->data = malloc(run->data_size);
	if (!run->data)
		return roi_err_set(err, "out of memory");
	memcpy(run->data, avr->data, run->data_size);
	return 0;
}

/* The tags of simavr's .mmcu section (avr/avr_mcu_section.h) that elf_read_firmware reads. */
enum {
	MMCU_NAME = 1, MMCU_FREQUENCY, MMCU_VCC, MMCU_AVCC, MMCU_AREF,
	MMCU_COMMAND = 10, MMCU_CONSOLE, MMCU_VCD_FILENAME, MMCU_VCD_PERIOD, MMCU_VCD_TRACE, MMCU_VCD_PORTPIN,
	MMCU_VCD_IRQ, MMCU_EXTERNAL_PULL,
};

/* "a .mmcu record ..." when a record of simavr's firmware settings would make its parser read or
 * write out of bounds: a record running past the section, a number shorter than its 4 bytes, a
 * string without its NUL or longer than simavr's field for it, more traces than its 32. */
static const char *bad_mmcu(const uint8_t *p, size_t size, size_t *at)
{
	const elf_firmware_t *fw = NULL;
	size_t traces = 0;

	for (*at = 0; *at < size; *at += 2 + (size_t)p[*at + 1]) {
		const uint8_t tag = p[*at], *v = p + *at + 2;
		size_t len;

		if (size - *at < 2 || (size_t)p[*at + 1] > size - *at - 2)
			return "runs past the end of the section";
		len = p[*at + 1];
		switch (tag) {
		case MMCU_NAME:
		case MMCU_VCD_FILENAME:
			if (!memchr(v, 0, len))
				return "is a string without its NUL";
			if (strlen((const char *)v) >= (tag == MMCU_NAME ? sizeof fw->mmcu : sizeof fw->tracename))
				return "is a string longer than simavr's field for it";
			break;
		case MMCU_FREQUENCY: case MMCU_VCC: case MMCU_AVCC: case MMCU_AREF: case MMCU_VCD_PERIOD:
		case MMCU_EXTERNAL_PULL:
			if (len < 4)
				return "is a number shorter than 4 bytes";
			break;
		case MMCU_COMMAND: case MMCU_CONSOLE:
			if (len < 2)
				return "is a register address shorter than 2 bytes";
			break;
		case MMCU_VCD_TRACE: case MMCU_VCD_PORTPIN: case MMCU_VCD_IRQ:
			if (len < 4 || !memchr(v + 3, 0, len - 3))
				return "is a trace without its NUL-terminated name";
			if (++traces > sizeof fw->trace / sizeof fw->trace[0])
				return "is a trace beyond simavr's 32";
			break;
		}
	}
	return NULL;
}

static int check_section(void *ctx, size_t index, const char *name, const void *data, size_t size,
			 struct roi_err *err)
{
	const char *path = ctx, *what;
	size_t at;

	/* simavr 1.6 (Debian 12) crashes reading any .lock section, avr-libc's LOCKBITS too
	 * (found by fuzz/avr_elf.c) */
	if (strcmp(name, ".lock") == 0)
		return roi_err_set(err, "%s: a .lock section (LOCKBITS): simavr 1.6 crashes loading lock bits; "
				   "build the firmware to simulate without them", path);
	/* simavr copies .fuse into its avr_t's fuse[] without a bound (found by fuzz/avr_elf.c) */
	if (strcmp(name, ".fuse") == 0 && size > sizeof ((avr_t *)NULL)->fuse)
		return roi_err_set(err, "%s: damaged ELF file: section %zu: a .fuse section of more than %zu bytes",
				   path, index, sizeof ((avr_t *)NULL)->fuse);
	if (strcmp(name, ".mmcu") == 0 && (what = bad_mmcu(data, size, &at)))
		return roi_err_set(err, "%s: damaged ELF file: section %zu: the .mmcu record at offset %zu %s", path,
				   index, at, what);
	return 0;
}

/* simavr's ELF reader trusts the file: every section name, contents and symbol it looks at must be
 * there, or it dereferences NULL, and what it copies must fit where it copies it (found by
 * fuzz/avr_elf.c; simavr 1.6's sim_elf.c has been read for every section it takes). */
static int check_for_simavr(const char *path, struct roi_err *err)
{
	struct roi_elf *elf;
	int rc;

	if (roi_elf_open(path, &elf, err) != 0)
		return -1;
	rc = roi_elf_check_structure(elf, err);
	if (rc == 0)
		rc = roi_elf_each_section(elf, check_section, (void *)path, err);
	roi_elf_close(elf);
	return rc;
}

int roi_avr_run(struct roi_avr_run *run, struct roi_err *err)
{
	elf_firmware_t fw;
	avr_logger_p old_logger = avr_global_logger_get();
	avr_t *avr = NULL;
	int rc = -1;

	run->data = NULL;
	run->main_seen = false;
	run->stack_low = 0xffff;
	if (roi_avr_check_mcu(run->mcu, err) != 0 || check_for_simavr(run->elf, err) != 0)
		return -1;
	simavr_said[0] = '\0';
	avr_global_logger_set(keep_errors);
	memset(&fw, 0, sizeof fw);
	if (elf_read_firmware(run->elf, &fw) != 0) {
		roi_err_set(err, "%s: simavr cannot load it%s%s", run->elf, *simavr_said ? ": " : "", simavr_said);
		goto out;
	}
	avr = avr_make_mcu_by_name(run->mcu);
	if (!avr || avr_init(avr) != 0) {
		roi_err_set(err, "%s: simavr cannot create a %s", run->elf, run->mcu);
		goto out;
	}
	/* simavr reports a read or write beyond the RAM as a crash and then makes it anyway
	 * (sim_core.c, avr_core_watch_write: data[addr] = v): a firmware writing through a wild
	 * pointer would write into roi's heap (t0400's badwrite.c crashed roi every other run). The
	 * data space is made all the 64 KiB a 16-bit address reaches; avr_terminate frees it. */
	uint8_t *data = realloc(avr->data, 0x10000);
	if (!data)
		abort();
	memset(data + avr->ramend + 1, 0, 0x10000 - (size_t)avr->ramend - 1);
	avr->data = data;
	/* simavr aborts the whole process on code larger than the flash (found by fuzz/avr_elf.c) */
	if ((uint64_t)fw.flashbase + fw.flashsize > (uint64_t)avr->flashend + 1) {
		roi_err_set(err, "%s: %u bytes of code at 0x%x do not fit the %u bytes of flash of the %s", run->elf,
			    (unsigned)fw.flashsize, (unsigned)fw.flashbase, (unsigned)avr->flashend + 1, run->mcu);
		goto out;
	}
	/* What .mmcu asks of simavr beyond the part's settings, roi does not do: no VCD trace files
	 * written, no command or console register (roi drops simavr's output anyway). */
	fw.tracecount = 0;
	fw.command_register_addr = fw.console_register_addr = 0;
	avr_load_firmware(avr, &fw);
	avr->frequency = run->freq_hz;  /* after loading: an .mmcu section may name another one */
	avr->sleep = no_sleep;
	run->events = NULL;
	run->nevents = run->events_cap = 0;
	run->events_lost = false;
	avr_register_io_write(avr, ROI_AVR_GPIOR0, region_event, run);
	if (*simavr_said) {
		roi_err_set(err, "%s: simavr cannot load it for %s: %s", run->elf, run->mcu, simavr_said);
		goto out;
	}
	run->main_cycle = 0;
	memset(&run->hook_enter, 0, sizeof run->hook_enter);
	memset(&run->hook_exit, 0, sizeof run->hook_exit);
	struct watch w = {.main_pc = symbol_address(&fw, "main"), .enter_pc = symbol_address(&fw, "__roi_region_enter"),
			  .exit_pc = symbol_address(&fw, "__roi_region_exit")};
	if (run->tracer) {
		run->tracer->address_size = avr->address_size;
		run->tracer->flash_size = avr->flashend + 1;
		run->tracer->flash = avr->flash;
	}
	rc = simulate(avr, &w, run, err);
out:
	if (avr) {
		avr_terminate(avr);
		free(avr);
	}
	free(fw.flash);
	for (uint32_t i = 0; i < fw.symbolcount; i++)
		free(fw.symbol[i]);
	free(fw.symbol);
	avr_global_logger_set(old_logger);
	return rc;
}

void roi_avr_run_free(struct roi_avr_run *run)
{
	free(run->data);
	run->data = NULL;
	free(run->events);
	run->events = NULL;
	run->nevents = 0;
}

/* exit()'s argument at the stop loop: the C int in r25:r24, where main's return value or exit's
 * argument stays on its way through libgcc's exit and _exit to that loop (abort() is _exit(1)).
 * A C++ static destructor run in .fini between them could change it. */
int roi_avr_exit_status(const struct roi_avr_run *run)
{
	return (int16_t)(run->data[24] | run->data[25] << 8);
}
