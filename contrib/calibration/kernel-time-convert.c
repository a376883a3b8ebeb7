/* kernel-time-convert: an uptime and timer library: millisecond uptimes split into days,
 * hours, minutes and seconds and joined again, timer ticks to microseconds for run-time
 * prescalers and clocks, signed differences with a time-zone offset, u32 to decimal digits.
 * u32 and i32 division and modulo by constants and by variables.  */
#include <stdint.h>
#include <stdbool.h>

#define SAMPLES 24

struct span {
	uint16_t days;
	uint8_t hours, minutes, seconds;
	uint16_t millis;
};

volatile uint32_t in_seed = 0x2545f491ul;
volatile uint32_t in_f_cpu = 16000000ul;
volatile int32_t in_tz = -18000;	/* seconds east of UTC: UTC-5 */
volatile uint32_t sink;

static void split_uptime(uint32_t ms, struct span *s)
{
	uint32_t secs = ms / 1000u;
	uint32_t mins = secs / 60u;
	uint32_t hrs = mins / 60u;

	s->millis = (uint16_t) (ms % 1000u);
	s->seconds = (uint8_t) (secs % 60u);
	s->minutes = (uint8_t) (mins % 60u);
	s->hours = (uint8_t) (hrs % 24u);
	s->days = (uint16_t) (hrs / 24u);
}

static uint32_t join_uptime(const struct span *s)
{
	uint32_t t = (uint32_t) s->days * 24u + s->hours;

	t = t * 60u + s->minutes;
	t = t * 60u + s->seconds;
	return t * 1000u + s->millis;
}

/* timer ticks to microseconds, rounded, for a prescaler of 1..1024 */
static uint32_t ticks_to_us(uint16_t ticks, uint16_t prescale, uint32_t f_cpu)
{
	uint32_t per_us = f_cpu / 1000000ul;	/* clock cycles per microsecond */
	uint32_t cycles = (uint32_t) ticks * prescale;

	return (cycles + per_us / 2) / per_us;
}

/* microseconds back to ticks, and the error left over in cycles */
static uint16_t us_to_ticks(uint32_t us, uint16_t prescale, uint32_t f_cpu, uint32_t *rest)
{
	uint32_t cycles = us * (f_cpu / 1000000ul);

	*rest = cycles % prescale;
	return (uint16_t) (cycles / prescale);
}

/* u32 to decimal, most significant digit first; returns the number of digits */
static uint8_t u32_digits(uint32_t v, char *out)
{
	char tmp[10];
	uint8_t n = 0, i;

	do {
		tmp[n++] = (char) ('0' + v % 10u);
		v /= 10u;
	} while (v != 0);
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

/* a signed difference in seconds as whole minutes and seconds (truncated toward 0) */
static int32_t signed_minutes(int32_t delta, int8_t *sec)
{
	*sec = (int8_t) (delta % 60);
	return delta / 60;
}

int main(void)
{
	uint32_t seed = in_seed, f_cpu = in_f_cpu, acc = 0, prev = 0;
	int32_t tz = in_tz;
	uint8_t n;
	bool ok = true;

	for (n = 0; n < SAMPLES; n++) {
		struct span s;
		char digits[10];
		uint32_t uptime, us, rest, rate;
		uint16_t ticks, prescale;
		int32_t delta, local, mins;
		int8_t sec;
		uint8_t len, i;

		seed ^= seed << 13;
		seed ^= seed >> 17;
		seed ^= seed << 5;
		uptime = seed >> (n & 7);

		split_uptime(uptime, &s);
		if (join_uptime(&s) != uptime)
			ok = false;
		acc += s.days + s.hours + s.minutes + s.seconds + s.millis;

		prescale = (uint16_t) 1 << (n % 5 * 2);	/* 1, 4, 16, 64, 256 */
		ticks = (uint16_t) seed;
		us = ticks_to_us(ticks, prescale, f_cpu);
		ticks = us_to_ticks(us, prescale, f_cpu, &rest);
		acc += us + ticks + rest;

		/* signed differences between samples, in seconds, with a time-zone shift */
		delta = (int32_t) (uptime / 1000u) - (int32_t) (prev / 1000u);
		local = delta + tz;
		mins = signed_minutes(local, &sec);
		acc += (uint32_t) mins + (uint32_t) (int32_t) sec;
		rate = (uint32_t) (n + 1) * 7u;
		acc += (uint32_t) (delta / (int32_t) rate);
		acc += (uint32_t) (local / 3600);
		prev = uptime;

		len = u32_digits(uptime, digits);
		for (i = 0; i < len; i++)
			acc = acc * 3 + (uint8_t) digits[i];
		acc += uptime % (rate + 1u);
	}

	sink = ok ? acc : ~acc;
	return 0;
}
