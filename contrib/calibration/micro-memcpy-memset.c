/* micro-memcpy-memset: the string.h library calls firmware uses most, memcpy, memset,
 * memcmp, memmove and strlen, with small and large, constant and variable sizes.  Their
 * cost is a call plus a per-byte loop in avr-libc, so the sizes vary from 1 to 96 bytes
 * for the fit to separate the two.  Constant tiny sizes may be inlined at -Os.  */
#include <stdint.h>
#include <string.h>

#define BUF 96
#define ROUNDS 60

volatile uint8_t in_len = 13;
volatile char in_text[] = "calibration corpus";
volatile uint32_t sink;

int main(void)
{
	uint8_t a[BUF], b[BUF];
	char text[24];
	uint8_t n = in_len;		/* 1 .. BUF, stepping by 7 */
	uint8_t at = 0, end = 0;	/* 0 .. 17 and 0 .. 18 */
	uint32_t acc = 0;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < sizeof in_text; i++)
		text[i] = in_text[i];
	memset(a, 0x55, sizeof a);

	for (r = 0; r < ROUNDS; r++) {
		memset(b, (int) r, n);
		memcpy(a, b, n);
		memcpy(a + 4, b, 4);
		memcpy(b + BUF / 2, a, BUF / 2);
		memmove(a + 1, a, (size_t) (n - 1));
		acc += (uint32_t) (memcmp(a, b, n) != 0);
		acc += (uint32_t) (memcmp(a + 8, b + 8, 16) < 0);
		memset(a + BUF - 8, 0, 8);
		text[at] = (char) ('a' + at);
		text[end] = '\0';
		acc += strlen(text);
		text[end] = 'x';
		acc += a[n - 1];
		acc += b[BUF - 1];

		n = (uint8_t) (n + 7);
		if (n > BUF)
			n = (uint8_t) (n - BUF);
		if (++at == 18)
			at = 0;
		end = (uint8_t) (end + 5);
		if (end >= 19)
			end = (uint8_t) (end - 19);
	}

	sink = acc;
	return 0;
}
