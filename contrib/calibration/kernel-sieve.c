/* kernel-sieve: sieve of Eratosthenes up to 1024 in a 128-byte bit array (one bit per
 * number), then a count of the primes (172 of them below 1024) and of twin primes.
 * Bit-array indexing (byte = n >> 3, mask = 1 << (n & 7)), strided inner loops and
 * read-modify-write stores, under the SRAM limits of a small AVR.  */
#include <stdint.h>
#include <string.h>

#define LIMIT 1024u
#define BYTES (LIMIT / 8)

volatile uint16_t in_limit = LIMIT;
volatile uint32_t sink;

static uint8_t composite[BYTES];

static void mark(uint16_t n)
{
	composite[n >> 3] |= (uint8_t) (1u << (n & 7));
}

static uint8_t is_composite(uint16_t n)
{
	return (uint8_t) (composite[n >> 3] & (1u << (n & 7)));
}

int main(void)
{
	uint16_t limit = in_limit;
	uint16_t n, m, primes = 0, twins = 0, last = 0;

	memset(composite, 0, sizeof composite);
	mark(0);
	mark(1);
	for (n = 2; (uint32_t) n * n < limit; n++)
		if (!is_composite(n))
			for (m = (uint16_t) (n * n); m < limit; m = (uint16_t) (m + n))
				mark(m);

	for (n = 2; n < limit; n++) {
		if (!is_composite(n)) {
			primes++;
			if (last != 0 && n - last == 2)
				twins++;
			last = n;
		}
	}

	sink = (uint32_t) primes << 16 | twins;
	return 0;
}
