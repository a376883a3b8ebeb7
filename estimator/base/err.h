/* base/err.h — errors as values.
 *
 * A failing function fills a roi_err with one line naming the file (and the line,
 * record or JSON field) and the cause, and returns -1. Only the command that called
 * it decides how to report it, so library code never prints and never exits. */
#ifndef ROI_ERR_H
#define ROI_ERR_H

struct roi_err {
	char msg[1024];
};

/* Formats the message into err (when err is not NULL) and returns -1, so that
 * "return roi_err_set(err, ...);" ends a failing function. */
int roi_err_set(struct roi_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
