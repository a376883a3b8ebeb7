/* kernel-string: hand-written string routines (length, copy, compare, concatenate,
 * upper-casing, search for a character, tokenising a command line) on short strings in
 * RAM, as a command-line or AT-command handler does them.  char loads and stores through
 * pointers, compares against character constants, loops ending on '\0'.  */
#include <stdint.h>

#define ROUNDS 12

volatile char in_line[] = "set speed 1200 ramp 35 mode fast";
volatile uint32_t sink;

static uint8_t my_strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (uint8_t) (p - s);
}

static char *my_strcpy(char *dst, const char *src)
{
	char *d = dst;

	while ((*d++ = *src++) != '\0')
		;
	return dst;
}

static int8_t my_strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (int8_t) ((*a > *b) - (*a < *b));
}

static void my_strcat(char *dst, const char *src)
{
	my_strcpy(dst + my_strlen(dst), src);
}

static void to_upper(char *s)
{
	for (; *s; s++)
		if (*s >= 'a' && *s <= 'z')
			*s = (char) (*s - 'a' + 'A');
}

static const char *find(const char *s, char c)
{
	for (; *s; s++)
		if (*s == c)
			return s;
	return 0;
}

/* splits s in place at spaces, returns the number of words */
static uint8_t tokenize(char *s, char *words[], uint8_t max)
{
	uint8_t n = 0;

	while (*s && n < max) {
		while (*s == ' ')
			*s++ = '\0';
		if (!*s)
			break;
		words[n++] = s;
		while (*s && *s != ' ')
			s++;
	}
	return n;
}

int main(void)
{
	char line[48], copy[48], out[64];
	char *words[8];
	uint32_t acc = 0;
	uint8_t i, r, n;

	for (i = 0; i < sizeof in_line; i++)
		line[i] = in_line[i];

	for (r = 0; r < ROUNDS; r++) {
		my_strcpy(copy, line);
		n = tokenize(copy, words, 8);
		out[0] = '\0';
		for (i = 0; i < n; i++) {
			if (my_strcmp(words[i], "speed") == 0 || my_strcmp(words[i], "ramp") == 0)
				acc += 100;
			if (find(words[i], 'a'))
				acc += i;
			my_strcat(out, words[i]);
			my_strcat(out, "/");
		}
		to_upper(out);
		acc += my_strlen(out) + (uint8_t) out[r];
		line[10 + (r & 3)] = (char) ('0' + (r & 7));	/* vary the number */
		line[4] = r & 1 ? 'S' : 's';		/* "speed" matches every other round */
	}

	sink = acc;
	return 0;
}
