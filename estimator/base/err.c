/* base/err.c — filling a roi_err. */
#include <stdarg.h>
#include <stdio.h>

#include "base/err.h"

int roi_err_set(struct roi_err *err, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof err->msg, fmt, ap);
		va_end(ap);
		/* Messages quote what they reject, and a JSON string or a file name may hold a newline or a
		 * terminal escape: the message must stay one line of plain text (found by fuzz/meta.c). */
		for (unsigned char *p = (unsigned char *)err->msg; *p; p++)
			if (*p < 0x20 || *p == 0x7f)
				*p = '?';
	}
	return -1;
}
