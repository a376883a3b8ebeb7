/* base/fmt.c — number formatting, see fmt.h. */
#include <math.h>
#include <stdio.h>

#include "base/fmt.h"

const char *roi_fmt_si(double v, const char *unit, char *buf, size_t size)
{
	static const char *const prefix[] = {"p", "n", "u", "m", "", "k", "M", "G", "T"};
	int i = 4;
	double a = fabs(v);

	if (a != 0 && isfinite(a)) {
		while (a < 1 && i > 0) {
			a *= 1000;
			i--;
		}
		while (a >= 1000 && i < 8) {
			a /= 1000;
			i++;
		}
		/* 999.99 rounds to "1000": show it as 1 of the next prefix instead. */
		if (a >= 999.95 && i < 8) {
			a /= 1000;
			i++;
		}
	}
	snprintf(buf, size, "%s%.4g %s%s", v < 0 ? "-" : "", a, prefix[i], unit);
	return buf;
}

const char *roi_fmt_num(double v, char *buf, size_t size)
{
	if (v == floor(v) && fabs(v) < 1e18)
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, "%.2f", v);
	return buf;
}

const char *roi_fmt_share(double part, double whole, char *buf, size_t size)
{
	if (whole <= 0)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.1f%%", 100.0 * part / whole);
	return buf;
}
