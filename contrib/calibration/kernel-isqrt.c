/* kernel-isqrt: integer square roots: the bit-by-bit (digit) method for u32 and
 * Newton's iteration with a 16-bit division for u16, each result checked
 * (r*r <= n < (r+1)^2), as for vector magnitudes and RMS values on MCUs.
 * 32-bit shifts, compares and subtractions, plus divisions in the Newton form.  */
#include <stdint.h>

#define VALUES 60

volatile uint32_t in_seed = 12345678UL;
volatile uint32_t sink;

static uint16_t isqrt32(uint32_t n)
{
	uint32_t root = 0, bit = 1UL << 30;

	while (bit > n)
		bit >>= 2;
	while (bit) {
		if (n >= root + bit) {
			n -= root + bit;
			root = (root >> 1) + bit;
		} else {
			root >>= 1;
		}
		bit >>= 2;
	}
	return (uint16_t) root;
}

static uint8_t isqrt16_newton(uint16_t n)
{
	uint16_t x, y;

	if (n < 2)
		return (uint8_t) n;
	x = n / 2 < 255 ? n / 2 : 255;	/* start above the root */
	for (;;) {
		y = (uint16_t) ((x + n / x) / 2);
		if (y >= x)
			return (uint8_t) x;
		x = y;
	}
}

int main(void)
{
	uint32_t n = in_seed;
	uint32_t acc = 0;
	uint16_t bad = 0;
	uint8_t i;

	for (i = 0; i < VALUES; i++) {
		uint16_t r = isqrt32(n);
		uint16_t n16 = (uint16_t) (n >> 13);
		uint8_t s = isqrt16_newton(n16);

		if ((uint32_t) r * r > n || ((uint32_t) r + 1) * ((uint32_t) r + 1) <= n)
			bad++;
		if ((uint16_t) s * s > n16 || (uint32_t) (s + 1) * (s + 1) <= n16)
			bad++;
		acc += r + s;
		n = n * 1103515245UL + 12345UL;
		if (i & 1)
			n >>= (i & 15) + 4;	/* small values too */
	}

	sink = acc + ((uint32_t) bad << 24);
	return 0;
}
