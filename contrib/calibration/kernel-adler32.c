/* kernel-adler32: Adler-32 (zlib's checksum) over a 200-byte buffer, written the
 * straightforward way with a modulo 65521 after each byte and the deferred way with one
 * modulo per 64 bytes, checked against each other and against the standard value of
 * "Wikipedia" (0x11E60398).  u32 additions and 32-bit remainder libcalls.  */
#include <stdint.h>
#include <string.h>

#define LEN 200
#define MOD_ADLER 65521UL

volatile uint8_t in_seed = 0x17;
volatile uint32_t sink;

static uint32_t adler32_simple(const uint8_t *data, uint16_t len)
{
	uint32_t a = 1, b = 0;
	uint16_t i;

	for (i = 0; i < len; i++) {
		a = (a + data[i]) % MOD_ADLER;
		b = (b + a) % MOD_ADLER;
	}
	return b << 16 | a;
}

static uint32_t adler32_blocked(const uint8_t *data, uint16_t len)
{
	uint32_t a = 1, b = 0;

	while (len) {
		uint8_t chunk = len > 64 ? 64 : (uint8_t) len;

		len = (uint16_t) (len - chunk);
		while (chunk--) {
			a += *data++;
			b += a;
		}
		a %= MOD_ADLER;
		b %= MOD_ADLER;
	}
	return b << 16 | a;
}

int main(void)
{
	uint8_t buf[LEN];
	uint8_t seed = in_seed;
	uint32_t acc = 0, simple;
	uint16_t i;

	memcpy(buf, "Wikipedia", 9);
	if (adler32_blocked(buf, 9) != 0x11e60398UL)
		acc = 0xdeadbeefUL;	/* wrong algorithm: show it in the sink */

	for (i = 0; i < LEN; i++) {
		seed = (uint8_t) (seed * 73 + 41);
		buf[i] = seed;
	}
	simple = adler32_simple(buf, LEN);
	acc ^= simple;
	if (adler32_blocked(buf, LEN) != simple)
		acc ^= 0x80000000UL;

	sink = acc;
	return 0;
}
