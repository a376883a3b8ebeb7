/* base/fmt.h — how numbers read in roi's text output. */
#ifndef ROI_FMT_H
#define ROI_FMT_H

#include <stddef.h>
#include <stdint.h>

/* "1.563 uJ", "250 us", "16 MHz": four significant digits, SI prefix (u for micro, ASCII). */
const char *roi_fmt_si(double v, const char *unit, char *buf, size_t size);

/* Whole numbers without decimals, others with two. */
const char *roi_fmt_num(double v, char *buf, size_t size);

/* "12.5%"; "-" when the whole is 0. */
const char *roi_fmt_share(double part, double whole, char *buf, size_t size);

#endif
