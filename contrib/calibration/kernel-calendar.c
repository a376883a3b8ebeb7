/* kernel-calendar: 32-bit timestamps (seconds since 1970, up to 2106) split into time of
 * day, weekday and year/month/day with Gregorian leap years, then converted back and
 * compared, as an RTC or logger does.  u32 and u16 division and modulo by constants
 * (60, 24, 7, 365, 1461, 4, 100, 400), a month-length table, compares and small loops.  */
#include <stdint.h>
#include <stdbool.h>

#define DATES 40
#define EPOCH_DAYS 719162ul	/* days from 0001-01-01 to 1970-01-01 */

struct date {
	uint16_t year;
	uint8_t month, day;	/* 1-based */
	uint8_t hour, minute, second;
	uint8_t weekday;	/* 0 = Sunday */
};

static const uint8_t month_days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

volatile uint32_t in_seed = 0x9e3779b9ul;
volatile uint32_t sink;

static bool is_leap(uint16_t y)
{
	return (y % 4u == 0 && y % 100u != 0) || y % 400u == 0;
}

/* days from 0001-01-01 to the first of January of year y */
static uint32_t days_before_year(uint16_t y)
{
	uint16_t p = (uint16_t) (y - 1u);
	uint32_t d = (uint32_t) p * 365u;

	d += p / 4u;
	d -= p / 100u;
	d += p / 400u;
	return d;
}

static uint8_t month_length(uint16_t y, uint8_t m)
{
	return (uint8_t) (month_days[m - 1u] + (m == 2u && is_leap(y)));
}

static void from_timestamp(uint32_t t, struct date *d)
{
	uint32_t minutes = t / 60u;
	uint32_t hours = minutes / 60u;
	uint16_t days = (uint16_t) (hours / 24u);	/* fits in 16 bits until 2149 */
	uint32_t n, r;
	uint16_t y, doy;
	uint8_t m, len;

	d->second = (uint8_t) (t % 60u);
	d->minute = (uint8_t) (minutes % 60u);
	d->hour = (uint8_t) (hours % 24u);
	d->weekday = (uint8_t) ((days + 4u) % 7u);	/* 1970-01-01 was a Thursday */

	/* a first guess from four-year blocks, then corrected for the century rule */
	n = days + EPOCH_DAYS;
	r = n % 1461u;
	y = (uint16_t) (1u + 4u * (uint16_t) (n / 1461u) + (uint16_t) (r / 365u));
	while (days_before_year(y) > n)
		y--;
	while (days_before_year((uint16_t) (y + 1u)) <= n)
		y++;
	doy = (uint16_t) (n - days_before_year(y));

	for (m = 1; m < 12; m++) {
		len = month_length(y, m);
		if (doy < len)
			break;
		doy = (uint16_t) (doy - len);
	}
	d->year = y;
	d->month = m;
	d->day = (uint8_t) (doy + 1u);
}

static uint32_t to_timestamp(const struct date *d)
{
	uint32_t days = days_before_year(d->year) - EPOCH_DAYS;
	uint8_t m;

	for (m = 1; m < d->month; m++)
		days += month_length(d->year, m);
	days += (uint8_t) (d->day - 1u);
	return ((days * 24u + d->hour) * 60u + d->minute) * 60u + d->second;
}

int main(void)
{
	struct date d;
	uint32_t x = in_seed;
	uint32_t acc = 0;
	uint16_t week;
	uint8_t i;

	for (i = 0; i < DATES; i++) {
		uint32_t t;

		x ^= x << 13;			/* xorshift32: any second from 1970 to 2106 */
		x ^= x >> 17;
		x ^= x << 5;
		t = x;
		if ((i & 7) == 3)		/* around the 2000 and 2100 leap rules */
			t = (i & 8 ? 951177600ul : 4106937600ul) + (x & 0xffffu) * 13u;
		from_timestamp(t, &d);
		if (to_timestamp(&d) != t)
			acc += 0x100000ul;	/* must not happen */
		week = (uint16_t) ((uint16_t) (d.day + 6u) / 7u);
		acc += d.year;
		acc += (uint16_t) ((uint16_t) d.month << 8 | d.day);
		acc += (uint32_t) d.hour * 3600u + (uint16_t) (d.minute * 60u) + d.second;
		acc += (uint16_t) (week << 4 | d.weekday);
		if (is_leap(d.year))
			acc ^= 1;
	}

	sink = acc;
	return 0;
}
