/* sp-peak.c — the deepest the stack of an AVR firmware gets, measured in simavr by roi's tests
 * and bench/stack.sh without roi: the stack pointer read before every instruction.
 *
 *     sp-peak ELF MCU [FUNCTION...]
 *
 * prints "main N": the bytes below the start-up code's stack pointer (__stack, where avr-libc's
 * start-up sets SP) that the stack reached from main's first instruction to the end (interrupts
 * included), and for each FUNCTION "FUNCTION N": the most any call of it took, from SP before the
 * call (before the call instruction or the interrupt pushed the return address) to the lowest SP
 * until it returned (its callees and interrupts included), or "FUNCTION -" when it never ran.
 * The run ends as roi run's does: at avr-libc's "cli; rjmp ." after exit, at a sleep with
 * interrupts off, or after 100 million cycles. Exit status 1 and a message on stderr when simavr
 * cannot load or run the firmware. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>

#define MAX_FNS 16

static uint16_t sp(const avr_t *avr)
{
	return (uint16_t)(avr->data[0x5d] | avr->data[0x5e] << 8);
}

static long symbol(const elf_firmware_t *fw, const char *name)
{
	for (uint32_t i = 0; i < fw->symbolcount; i++)
		if (strcmp(fw->symbol[i]->symbol, name) == 0)
			return (long)fw->symbol[i]->addr;
	return -1;
}

static void quiet(avr_t *avr, const int level, const char *fmt, va_list ap)
{
	(void)avr, (void)level, (void)fmt, (void)ap;
}

int main(int argc, char **argv)
{
	elf_firmware_t fw;
	struct { const char *name; long addr; bool in; uint16_t before; long peak; } fn[MAX_FNS];
	int nfn = 0;

	if (argc < 3 || argc - 3 > MAX_FNS) {
		fprintf(stderr, "usage: sp-peak ELF MCU [FUNCTION...]\n");
		return 2;
	}
	avr_global_logger_set(quiet);
	memset(&fw, 0, sizeof fw);
	if (elf_read_firmware(argv[1], &fw) != 0) {
		fprintf(stderr, "sp-peak: %s: simavr cannot load it\n", argv[1]);
		return 1;
	}
	avr_t *avr = avr_make_mcu_by_name(argv[2]);
	if (!avr || avr_init(avr) != 0) {
		fprintf(stderr, "sp-peak: no MCU %s in simavr\n", argv[2]);
		return 1;
	}
	avr_load_firmware(avr, &fw);
	avr->frequency = 16000000;
	long main_pc = symbol(&fw, "main"), stack = symbol(&fw, "__stack");
	uint16_t top = stack >= 0 ? (uint16_t)stack : avr->ramend, low = 0xffff;
	bool in_main = false;
	for (int i = 3; i < argc; i++) {
		fn[nfn].name = argv[i];
		fn[nfn].addr = symbol(&fw, argv[i]);
		fn[nfn].in = false;
		fn[nfn].peak = -1;
		if (fn[nfn].addr < 0) {
			fprintf(stderr, "sp-peak: %s: no symbol %s\n", argv[1], argv[i]);
			return 1;
		}
		nfn++;
	}
	/* A prologue writes SPH, then SREG, then SPL: in between, SP is the new high byte with the
	 * old low one, up to 255 bytes off (interrupts are off, so no code sees it): not sampled. */
	bool half_written = false;
	while (avr->cycle < 100000000) {
		uint32_t pc = avr->pc;
		uint16_t s = sp(avr), op = (uint16_t)(avr->flash[pc] | avr->flash[pc + 1] << 8);

		if ((long)pc == main_pc)
			in_main = true;
		if (!half_written && in_main && s < low)
			low = s;
		for (int i = 0; i < nfn && !half_written; i++) {
			if (fn[i].in && s >= fn[i].before)
				fn[i].in = false;       /* returned: SP back where the call found it */
			if (!fn[i].in && (long)pc == fn[i].addr) {
				fn[i].in = true;
				fn[i].before = (uint16_t)(s + avr->address_size);
			}
			if (fn[i].in && (long)(fn[i].before - s) > fn[i].peak)
				fn[i].peak = fn[i].before - s;
		}
		if ((op & 0xfe0f) == 0xbe0e)            /* out SPH, Rr */
			half_written = true;
		else if ((op & 0xfe0f) == 0xbe0d)       /* out SPL, Rr */
			half_written = false;
		/* avr-libc's exit: "cli" then "rjmp ." */
		if (!avr->sreg[S_I] && pc + 1 <= avr->flashend && avr->flash[pc] == 0xff && avr->flash[pc + 1] == 0xcf)
			break;
		int state = avr_run(avr);
		if (state == cpu_Done)
			break;
		if (state == cpu_Crashed) {
			fprintf(stderr, "sp-peak: %s: crashed at PC 0x%04x\n", argv[1], (unsigned)pc);
			return 1;
		}
	}
	if (!in_main) {
		fprintf(stderr, "sp-peak: %s: main never ran\n", argv[1]);
		return 1;
	}
	printf("main %u\n", (unsigned)(top - low));
	for (int i = 0; i < nfn; i++) {
		if (fn[i].peak < 0)
			printf("%s -\n", fn[i].name);
		else
			printf("%s %ld\n", fn[i].name, fn[i].peak);
	}
	return 0;
}
