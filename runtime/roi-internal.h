/* roi-internal.h — what the runtime's files share; not installed. */
#ifndef ROI_INTERNAL_H
#define ROI_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "roi.h"
#include "roi-profile-io.h"

/* Internal names start with __roi_ (reserved, like libgcov's __gcov_) so that they cannot collide with
 * a program's own, and stay hidden when libroi.a is linked into a shared object. */
#pragma GCC visibility push(hidden)

/* One "fn" line of a profile: its record (roi-profile-io.h) and the counts. */
struct roi_fn {
	struct roi_pf_fn rec;
	uint64_t *counts;       /* rec.ncounters entries inside roi_profile.counts */
};

/* A profile in memory: fns and regions sorted by (unit, index), each key once. */
struct roi_profile {
	uint64_t runs;
	size_t nfns;
	struct roi_fn *fns;
	uint64_t *counts;       /* storage for every fn's counts */
	size_t nregions;
	struct roi_pf_region *regions;  /* malloc'd; every one has_inner (roi.h) */
	int has_hook_cost;      /* "hook-cost" and "hook-inside" lines: the hooks were calibrated */
	double hook_cost;       /* ns per enter+exit pair, as an enclosing region measures it */
	double hook_inside;     /* ns of its own pair that a region measures */
};

/* roi-register.c */
size_t __roi_registered_units(void);
int __roi_snapshot(struct roi_profile *prof);       /* 0, or -1 with errno */
void __roi_profile_free(struct roi_profile *prof);

/* roi-region.c */
int __roi_regions_ran(void);                        /* some region was entered since start-up */
int __roi_regions_snapshot(struct roi_profile *prof);       /* 0, or -1 with errno */
void __roi_regions_reset(void);
void __roi_regions_close_open(void);                /* before writing: time open regions up to now */
void __roi_arm_exit_writer(void);                   /* atexit(__roi_exit_writer), once */
size_t __roi_regions_possible(void);                /* at most this many regions in the process */

/* roi-profile-merge.c: merges the text of an existing profile into prof (counts, runs, region calls
 * and times added; regions are the union of both). Returns ROI_MERGED, or ROI_CORRUPT /
 * ROI_OTHER_BUILD / ROI_FULL (a sum would not fit in 64 bits) with a reason for the message in why,
 * or ROI_MERGE_FAILED with errno set; prof is unchanged unless ROI_MERGED. */
enum roi_merge_result { ROI_MERGED, ROI_CORRUPT, ROI_OTHER_BUILD, ROI_FULL, ROI_MERGE_FAILED };
enum roi_merge_result __roi_profile_merge(const char *text, size_t len, struct roi_profile *prof,
					  char *why, size_t whysize);
/* The most bytes a profile that __roi_profile_merge can merge into prof can have, with at most
 * max_regions region lines: anything longer is not worth reading. */
size_t __roi_profile_bound(const struct roi_profile *prof, size_t max_regions);

/* roi-profile-write.c: merges prof into the profile at path and writes it atomically (or into the
 * stream or device path names), with program on its program line. Returns 0, or -1 after printing
 * one line on stderr. */
int __roi_profile_save(const char *path, const char *program, struct roi_profile *prof);

/* roi-exec.c: roi_dump(), then exec_v(path, argv), or exec_ve(path, argv, envp) with envp after the
 * list, argv made of arg and the arguments after it in *ap up to a null pointer, as execl takes them.
 * Returns what the exec function returns, or -1 with errno. */
int __roi_exec_list(const char *path, const char *arg, va_list *ap,
		    int (*exec_v)(const char *, char *const[]),
		    int (*exec_ve)(const char *, char *const[], char *const[]));

/* roi-threads.c: the threads' copies of counters (__roi_thread_unit) added into the units' counters
 * and zeroed; zeroed; after fork, in the child. */
void __roi_threads_merge(void);
void __roi_threads_reset(void);
void __roi_threads_after_fork(void);

/* roi-dump.c */
void __roi_exit_writer(void);
void __roi_program_path(char *buf, size_t size);       /* one line: a newline in it is '?' */
void __roi_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#pragma GCC visibility pop

#endif /* ROI_INTERNAL_H */
