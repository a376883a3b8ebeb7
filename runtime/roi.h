/* roi.h — the host runtime of roi (libroi.a): ABI used by instrumented code, and the public API.
 *
 * The contract is docs/formats.md §2 (this ABI) and §3 (the profile the runtime writes). */
#ifndef ROI_H
#define ROI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of struct roi_fn_desc and of __roi_register_unit. Bump both when either changes. */
#define ROI_ABI_VERSION 1

/* One instrumented function. The plugin emits one per function into the section roi_fn_<unit>. */
struct roi_fn_desc {
	uint64_t unit;          /* unit id: metadata "unit" */
	uint32_t index;         /* position in metadata "functions" */
	uint32_t checksum;      /* metadata "checksum" */
	uint32_t ncounters;     /* number of blocks, one counter each */
	uint32_t counter_bits;  /* 16, 32 or 64: counters is uint16_t[], uint32_t[] or uint64_t[] */
	void *counters;
};

/* Called by the constructor the plugin emits in every instrumented translation unit, with the bounds
 * of that unit's descriptor section. Ranges of another abi_version are ignored with a message.
 * Registering the same range again (a unit reached from several translation units) is harmless.
 * The first registration arranges for the profile to be written at exit. */
void __roi_register_unit(uint32_t abi_version, const struct roi_fn_desc *start,
			 const struct roi_fn_desc *stop);

/* Writes (merges into) the profile now: $ROI_OUTPUT, else ./<executable's name>.roi. Then zeroes the
 * counters, so that the exit writer adds only what ran after this call. Each successful call counts
 * as one run. Returns 0, or -1 after printing one
 * line on stderr (the counters are then kept). Does nothing and returns 0 when no unit registered.
 * Processes are serialised by a lock on PATH.lock; threads of one process must not call roi_dump or
 * roi_reset at the same time, and counts that other threads add during the call may be lost. */
int roi_dump(void);

/* Zeroes every registered counter, e.g. to leave out a warm-up phase. */
void roi_reset(void);

#ifdef __cplusplus
}
#endif

#endif /* ROI_H */
