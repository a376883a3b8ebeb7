/* kernel-tokenizer: the command shell of a serial console: a line buffer of ';'-separated
 * commands with quoted strings, words lowercased and looked up in a keyword table, a small
 * variable store, each command dropped from the buffer with memmove.  Plain char compares
 * and walks to '\0', helpers returning char *, bool and char, strlen, memcmp and memmove.  */
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#define WORD 12
#define VARS 4
#define ROUNDS 5

struct var {
	char name[WORD];
	char value[WORD];
};

static const char script[] =
	"set led=on; GET led;echo \"a;b c\" ;  set pwm=128;set Mode='auto run'; get pwm ;"
	"set led=off;echo done ; reset;get mode; bogus 12;set x_1 = 'y'";
static const char *const keywords[] = {"set", "get", "echo", "reset"};

volatile char in_mask = 0;
volatile uint32_t sink;

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static char lower(char c)
{
	if (c >= 'A' && c <= 'Z')
		return (char) (c - 'A' + 'a');
	return c;
}

static char *skip_spaces(char *p)
{
	while (*p != '\0' && is_space(*p))
		p++;
	return p;
}

/* the end of the first command: its ';' outside quotes, or the terminating '\0' */
static char *command_end(char *p)
{
	char quote = '\0';

	while (*p != '\0') {
		if (quote != '\0') {
			if (*p == quote)
				quote = '\0';
		} else if (*p == '"' || *p == '\'') {
			quote = *p;
		} else if (*p == ';') {
			break;
		}
		p++;
	}
	return p;
}

/* copies a word, lowercased, into tok; returns where it stopped */
static char *read_word(char *p, char *tok)
{
	uint8_t n = 0;

	while (*p != '\0' && is_word(*p)) {
		if (n < WORD - 1)
			tok[n++] = lower(*p);
		p++;
	}
	tok[n] = '\0';
	return p;
}

/* copies a quoted string without its quotes; returns past the closing quote */
static char *read_quoted(char *p, char *out)
{
	char quote = *p++;
	uint8_t n = 0;

	while (*p != '\0' && *p != quote) {
		if (n < WORD - 1)
			out[n++] = *p;
		p++;
	}
	out[n] = '\0';
	if (*p == quote)
		p++;
	return p;
}

static char *read_value(char *p, char *out)
{
	if (*p == '"' || *p == '\'')
		return read_quoted(p, out);
	return read_word(p, out);
}

static int8_t find_keyword(const char *tok)
{
	uint8_t len = (uint8_t) strlen(tok);
	int8_t k;

	for (k = 0; k < (int8_t) (sizeof keywords / sizeof keywords[0]); k++)
		if (strlen(keywords[k]) == len && memcmp(keywords[k], tok, len) == 0)
			return k;
	return -1;
}

static bool same_text(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

int main(void)
{
	char line[sizeof script];
	struct var vars[VARS];
	char tok[WORD], name[WORD], value[WORD];
	char mask = in_mask;
	uint8_t nvars = 0, round, i;
	uint16_t errors = 0, changes = 0;
	uint32_t acc = 0;

	for (round = 0; round < ROUNDS; round++) {
		for (i = 0; i < sizeof script; i++)
			line[i] = (char) (script[i] ^ mask);
		line[round * 13 + 5] = ' ';	/* line noise: breaks a different word each round */

		while (line[0] != '\0') {
			char *end = command_end(line);
			bool last = *end == '\0';
			char *p = skip_spaces(line);
			uint8_t k;

			*end = '\0';
			p = skip_spaces(read_word(p, tok));
			switch (find_keyword(tok)) {
			case 0:	/* set NAME = VALUE */
				p = skip_spaces(read_word(p, name));
				if (*p != '=' || name[0] == '\0') {
					errors++;
					break;
				}
				read_value(skip_spaces(p + 1), value);
				for (k = 0; k < nvars && !same_text(vars[k].name, name); k++)
					;
				if (k == nvars) {
					if (nvars == VARS) {
						errors++;
						break;
					}
					memcpy(vars[k].name, name, WORD);
					vars[k].value[0] = '\0';
					nvars++;
				}
				if (memcmp(vars[k].value, value, strlen(value) + 1) != 0) {
					memcpy(vars[k].value, value, WORD);
					changes++;
				}
				break;
			case 1:	/* get NAME */
				read_word(p, name);
				for (k = 0; k < nvars && !same_text(vars[k].name, name); k++)
					;
				if (k == nvars)
					errors++;
				else
					for (p = vars[k].value; *p != '\0'; p++)
						acc = acc * 31 + (uint8_t) *p;
				break;
			case 2:	/* echo VALUE */
				read_value(p, value);
				acc += strlen(value);
				break;
			case 3:	/* reset */
				nvars = 0;
				break;
			default:
				errors++;
				break;
			}
			for (p = tok; *p != '\0'; p++)
				acc += (uint8_t) *p;

			if (last) {
				line[0] = '\0';
			} else {
				size_t rest = strlen(end + 1);

				memmove(line, end + 1, rest + 1);
			}
		}
	}

	sink = acc ^ ((uint32_t) errors << 16) ^ changes ^ nvars;
	return 0;
}
