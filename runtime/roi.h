/* roi.h — the host runtime of roi (libroi.a): ABI used by instrumented code, and the public API.
 *
 * The contract is docs/formats.md §2 (this ABI) and §3 (the profile the runtime writes), and
 * docs/regions.md (the region hooks and the profile's region lines). */
#ifndef ROI_H
#define ROI_H

#include <stdint.h>
#include <sys/types.h>      /* pid_t */

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
	uint32_t ncounters;     /* its counters: one per counted edge (or block) and value counter */
	uint32_t counter_bits;  /* 16, 32 or 64: counters is uint16_t[], uint32_t[] or uint64_t[] */
	void *counters;
};

/* Called by the constructor the plugin emits in every instrumented translation unit, with the bounds
 * of that unit's descriptor section. Ranges of another abi_version are ignored with a message.
 * Registering the same range again (a unit reached from several translation units) is harmless.
 * The first registration arranges for the profile to be written at exit. */
void __roi_register_unit(uint32_t abi_version, const struct roi_fn_desc *start,
			 const struct roi_fn_desc *stop);

/* Code counted per thread (-fplugin-arg-roi-atomic, OpenMP's bodies) calls this where its thread's
 * pointer *slot (the unit's __roi_t_<unit>) is null: the thread's copy of the counters of the unit
 * whose descriptors are [start, stop), which the runtime adds into theirs when the thread ends and
 * when the profile is taken (runtime/roi-threads.c). Sets *slot and returns it. */
void *__roi_thread_unit(void **slot, const struct roi_fn_desc *start, const struct roi_fn_desc *stop);

/* One region of interest (docs/regions.md): a function or loop the filter gave enter/exit hooks.
 * The plugin emits one per region, writable, named __roi_r_<unit>_<index>; the fields after kind
 * are the runtime's and start at zero. */
struct roi_region {
	uint64_t unit;              /* metadata unit id */
	uint32_t index;             /* position in the unit's metadata "regions" */
	uint32_t kind;              /* ROI_REGION_FUNCTION or ROI_REGION_LOOP */
	struct roi_region *next;    /* runtime state below, zero at start */
	uint64_t calls;
	uint64_t total;             /* ns on the host, cycles on a simulator or a cycle counter */
	uint64_t inner;             /* enters of hooks (any region's) while it was open, from its
				     * outermost entries: the pairs whose cost its total includes */
};

#define ROI_REGION_FUNCTION 1
#define ROI_REGION_LOOP 2

/* The hooks the plugin inserts: enter at a region's entry, exit on every way out of it. Thread-safe:
 * calls and total are added atomically, and each thread has its own stack of open regions, so a
 * region entered again before it was left (recursion) counts every call but is timed once, from its
 * outermost entry. Another monitor (a simulator, a cycle counter) may provide these two instead:
 * libroi.a's are weak, so a program's own definitions take their place. */
void __roi_region_enter(struct roi_region *region);
void __roi_region_exit(struct roi_region *region);

/* What instrumented code calls instead of fork and the exec family (gcc-plugin/roi-exec.cc), as
 * GCC's -fprofile-arcs calls libgcov's __gcov_fork and __gcov_execv...: each exec writes the profile
 * first (roi_dump), since the process is replaced without exit; a forked child starts from zero
 * (roi_reset), so that what its parent counted is written once, by the parent. With -fprofile-arcs
 * the __roi_gcov_ ones call libgcov's instead of the C library's. */
pid_t __roi_fork(void);
int __roi_execl(const char *path, const char *arg, ...);
int __roi_execlp(const char *file, const char *arg, ...);
int __roi_execle(const char *path, const char *arg, ...);
int __roi_execv(const char *path, char *const argv[]);
int __roi_execvp(const char *file, char *const argv[]);
int __roi_execve(const char *path, char *const argv[], char *const envp[]);
int __roi_execvpe(const char *file, char *const argv[], char *const envp[]);
int __roi_fexecve(int fd, char *const argv[], char *const envp[]);
pid_t __roi_gcov_fork(void);
int __roi_gcov_execl(const char *path, const char *arg, ...);
int __roi_gcov_execlp(const char *file, const char *arg, ...);
int __roi_gcov_execle(const char *path, const char *arg, ...);
int __roi_gcov_execv(const char *path, char *const argv[]);
int __roi_gcov_execvp(const char *file, char *const argv[]);
int __roi_gcov_execve(const char *path, char *const argv[], char *const envp[]);

/* Writes (merges into) the profile now: $ROI_OUTPUT, else ./<executable's name>.roi. Then zeroes the
 * counters and the regions' times, so that the exit writer adds only what ran after this call. Regions
 * still open in the calling thread are timed up to this call (and from it on again afterwards), with
 * a one-line note on stderr. Each successful call counts as one run. Returns 0, or -1 after printing one
 * line on stderr (the counters are then kept). Does nothing and returns 0 when no unit registered and
 * no region ran.
 * Processes are serialised by a lock (flock) on PATH's directory; threads of one process must not call
 * roi_dump or roi_reset at the same time, and counts that other threads add during the call may be
 * lost. */
int roi_dump(void);

/* Zeroes every registered counter and the regions' calls and times, e.g. to leave out a warm-up
 * phase. Regions open in the calling thread are timed from this call on. */
void roi_reset(void);

#ifdef __cplusplus
}
#endif

#endif /* ROI_H */
