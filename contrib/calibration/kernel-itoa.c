/* kernel-itoa: formatting integers as text without printf: u16 and i32 to decimal by
 * repeated division by 10, u16 to hexadecimal by nibbles, and a fixed-point value
 * "-12.345" with a decimal point, each checked by parsing the text back (atoi-style).
 * Division and remainder by constants, character arithmetic, string reversal.  */
#include <stdint.h>
#include <stdbool.h>

#define VALUES 25

volatile uint16_t in_seed = 4711;
volatile uint32_t sink;

static uint8_t utoa16(uint16_t v, char *out)
{
	char tmp[5];
	uint8_t n = 0, i;

	do {
		tmp[n++] = (char) ('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	out[n] = '\0';
	return n;
}

static uint8_t ltoa32(int32_t v, char *out)
{
	uint32_t u = v < 0 ? 0u - (uint32_t) v : (uint32_t) v;
	uint8_t n = 0, i, j;

	do {
		out[n++] = (char) ('0' + (uint8_t) (u % 10));
		u /= 10;
	} while (u);
	if (v < 0)
		out[n++] = '-';
	out[n] = '\0';
	for (i = 0, j = (uint8_t) (n - 1); i < j; i++, j--) {	/* reverse in place */
		char t = out[i];

		out[i] = out[j];
		out[j] = t;
	}
	return n;
}

static void hex16(uint16_t v, char *out)
{
	static const char digits[] = "0123456789abcdef";
	int8_t shift;
	uint8_t n = 0;

	for (shift = 12; shift >= 0; shift -= 4)
		out[n++] = digits[(v >> shift) & 0xf];
	out[n] = '\0';
}

/* milli-units as "[-]int.fff" */
static void fixed3(int32_t milli, char *out)
{
	uint8_t n = ltoa32(milli / 1000, out);
	uint16_t frac = (uint16_t) (milli < 0 ? -(milli % 1000) : milli % 1000);

	if (milli < 0 && milli > -1000) {	/* "-0.xyz": ltoa32 wrote "0" */
		out[0] = '-';
		out[1] = '0';
		n = 2;
	}
	out[n++] = '.';
	out[n++] = (char) ('0' + frac / 100);
	out[n++] = (char) ('0' + frac / 10 % 10);
	out[n++] = (char) ('0' + frac % 10);
	out[n] = '\0';
}

static int32_t parse(const char *s)
{
	bool neg = false;
	int32_t v = 0;

	if (*s == '-') {
		neg = true;
		s++;
	}
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return neg ? -v : v;
}

int main(void)
{
	char text[16];
	uint16_t x = in_seed;
	uint32_t acc = 0;
	uint16_t bad = 0;
	uint8_t i;

	for (i = 0; i < VALUES; i++) {
		int32_t big;

		x = (uint16_t) (x * 25173u + 13849u);
		big = (int32_t) x * (i & 1 ? -3001 : 2999) + i;

		acc += utoa16(x, text);
		if (parse(text) != x)
			bad++;
		acc += ltoa32(big, text);
		if (parse(text) != big)
			bad++;
		hex16(x, text);
		acc += (uint8_t) text[0] + (uint8_t) text[3];
		fixed3(big / 1000 - 5, text);
		acc += (uint8_t) text[1];
	}

	sink = acc + ((uint32_t) bad << 24);
	return 0;
}
