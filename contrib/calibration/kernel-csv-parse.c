/* kernel-csv-parse: formats a record of signed 16-bit readings as comma-separated text and
 * parses it back with a hand-written scanner (sign, digits, separators, spaces skipped), as a
 * configuration or telemetry line parser does; the values read back must be the values
 * written. Exercises char loads and stores through pointers and compares with characters.  */
#include <stdint.h>

#define N 24
#define ROUNDS 6

volatile uint8_t in_seed = 0x77;
volatile uint32_t sink;

/* writes v in decimal at p, returns the end */
static char *put_int(char *p, int16_t v)
{
	char tmp[6];
	uint16_t u = (uint16_t) (v < 0 ? -(int32_t) v : v);
	uint8_t n = 0;

	if (v < 0)
		*p++ = '-';
	do {
		tmp[n++] = (char) ('0' + u % 10u);
		u = (uint16_t) (u / 10u);
	} while (u);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* reads up to max integers from s; returns how many */
static uint8_t parse(const char *s, int16_t *out, uint8_t max)
{
	uint8_t n = 0;

	while (*s && n < max) {
		char c;
		c = *s;
		if (c == ' ' || c == ',') {
			s++;
			continue;
		}
		{
			uint8_t neg = 0;
			int16_t v = 0;

			if (c == '-') {
				neg = 1;
				s++;
			} else if (c == '+') {
				s++;
			}
			while (*s >= '0' && *s <= '9') {
				v = (int16_t) (v * 10 + (*s - '0'));
				s++;
			}
			out[n++] = neg ? (int16_t) -v : v;
		}
	}
	return n;
}

int main(void)
{
	char line[N * 8 + 1];
	int16_t vals[N], back[N];
	uint8_t seed = in_seed;
	uint32_t acc = 0;
	uint8_t r, i;

	for (r = 0; r < ROUNDS; r++) {
		char *p = line;

		for (i = 0; i < N; i++) {
			seed = (uint8_t) (seed * 53 + 29);
			vals[i] = (int16_t) ((int16_t) (seed ^ (r * 16)) * (int16_t) ((i & 7) * 37 + 1) - 4000);
			p = put_int(p, vals[i]);
			*p++ = ',';
			if (i % 5 == 4)
				*p++ = ' ';
		}
		*p = '\0';
		if (parse(line, back, N) != N)
			acc ^= 0xdead0000UL;
		for (i = 0; i < N; i++) {
			if (back[i] != vals[i])
				acc ^= 0x00beef00UL;
			acc = (acc << 5) + (acc >> 27) + (uint16_t) back[i];
		}
		acc += (uint32_t) (p - line);
	}
	sink = acc;
	return 0;
}
