/* base/atomic.h — a file roi writes is there whole, or as it was, never half.
 *
 * The bytes go to a temporary beside the file, created by mkstemp (O_EXCL: never through a link
 * someone planted at a guessable name), which is renamed over the file once every byte is
 * written: rename replaces a symbolic link at the file's name rather than writing through it. A
 * profile, a model, a report is then either the old one or the new one, whatever kills roi. */
#ifndef ROI_ATOMIC_H
#define ROI_ATOMIC_H

#include <stdio.h>

#include "base/err.h"

struct roi_atomic {
	const char *path;
	char *tmp;              /* PATH.XXXXXX */
	FILE *f;                /* where to write */
};

/* Creates the temporary, readable as any file the user creates (0666 less the umask). Errors:
 * "PATH: <strerror>". */
int roi_atomic_open(struct roi_atomic *a, const char *path, struct roi_err *err);

/* Closes the temporary and renames it over path when every write succeeded; removes it
 * otherwise. Errors: "PATH: cannot write WHAT: <strerror>". */
int roi_atomic_commit(struct roi_atomic *a, const char *what, struct roi_err *err);

/* Closes and removes the temporary: nothing is written. */
void roi_atomic_abort(struct roi_atomic *a);

#endif
