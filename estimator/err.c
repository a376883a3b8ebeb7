/* err.c — filling a roi_err. */
#include <stdarg.h>
#include <stdio.h>

#include "err.h"

int roi_err_set(struct roi_err *err, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof err->msg, fmt, ap);
		va_end(ap);
	}
	return -1;
}
