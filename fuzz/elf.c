/* fuzz/elf.c — roi's ELF reading (estimator/input/elffile.c, and the runners' checks and counter
 * discovery in estimator/run/common.c) on arbitrary bytes.
 *
 * roi opens whatever path it is given: a truncated link, a stripped firmware, a file that is no ELF
 * at all. Every step the commands take is taken here: open, machine checks of both runners, the
 * .roi.meta records and the program they describe, symbol lookup and code size, the runners'
 * search for each function's counter array, and roi stack's reading of the sections, symbols,
 * machine code (AVR, Thumb) and RAM notes, with its JSON. The bytes are handed to libelf as a file, as the
 * commands do, through a memory file. */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "input/elffile.h"
#include "input/meta.h"
#include "report/stack.h"
#include "run/common.h"
#include "stack/stack.h"

static const struct roi_run_target targets[] = {
	{"avr", "AVR", EM_AVR, false, NULL, true},
	{"cortex-m", "ARM", EM_ARM, true, NULL, false},
};

static void counters(struct roi_elf *elf, const struct roi_program *prog)
{
	struct roi_counter_array *a = calloc(prog->nfunctions ? prog->nfunctions : 1, sizeof *a);
	struct roi_err err;

	if (!a)
		abort();
	for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++)
		roi_run_find_counters(elf, prog, &targets[t], a, &err);
	free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct roi_elf *elf;
	struct roi_err err;

	if (fd < 0) {
		fd = memfd_create("fuzz-elf", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();

	for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++)
		roi_run_check_elf(path, &targets[t], &err);
	if (roi_elf_open(path, &elf, &err) != 0) {
		if (strchr(err.msg, '\n'))
			abort();
		return 0;
	}
	struct roi_elf_info info;
	struct roi_records rec;
	struct roi_symbol sym;
	uint64_t bytes;

	roi_elf_info(elf, &info);
	roi_elf_symbol(elf, "main", &sym, &err);
	roi_elf_code_size(elf, &bytes, &err);
	if (roi_elf_meta_records(elf, &rec, &err) == 0) {
		struct roi_program prog;

		for (size_t i = 0; i < rec.n; i++)
			if (strlen(rec.text[i]) != rec.len[i])
				abort();
		if (roi_program_from_records(path, rec.text, rec.n, &prog, &err) == 0) {
			struct roi_stack s;

			counters(elf, &prog);
			if (roi_stack_build(&s, &prog, &err) == 0)
				cJSON_Delete(roi_stack_json(&s));
			else if (strchr(err.msg, '\n'))
				abort();
			roi_stack_free(&s);
		}
		roi_program_free(&prog);
		roi_records_free(&rec);
	}
	roi_elf_close(elf);
	return 0;
}
