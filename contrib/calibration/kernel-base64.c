/* kernel-base64: Base64 encoding of a 90-byte binary block (RFC 4648 alphabet, with
 * padding), decoding it back through a reverse lookup, and comparing; also the
 * standard "foobar" -> "Zm9vYmFy" check.  Byte packing with shifts and masks, table
 * lookups in both directions, and character-class branches.  */
#include <stdint.h>
#include <string.h>

#define LEN 90
#define ENC_LEN ((LEN + 2) / 3 * 4)
#define PASSES 3

volatile uint8_t in_seed = 0x2b;
volatile uint32_t sink;

static const char alphabet[65] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static uint8_t encode(const uint8_t *src, uint8_t len, char *dst)
{
	uint8_t i, n = 0;

	for (i = 0; i + 2 < len; i = (uint8_t) (i + 3)) {
		uint32_t v = (uint32_t) src[i] << 16 | (uint16_t) src[i + 1] << 8 | src[i + 2];

		dst[n++] = alphabet[(v >> 18) & 63];
		dst[n++] = alphabet[(v >> 12) & 63];
		dst[n++] = alphabet[(v >> 6) & 63];
		dst[n++] = alphabet[v & 63];
	}
	if (i < len) {
		uint32_t v = (uint32_t) src[i] << 16;

		if (i + 1 < len)
			v |= (uint16_t) src[i + 1] << 8;
		dst[n++] = alphabet[(v >> 18) & 63];
		dst[n++] = alphabet[(v >> 12) & 63];
		dst[n++] = i + 1 < len ? alphabet[(v >> 6) & 63] : '=';
		dst[n++] = '=';
	}
	return n;
}

static int8_t decode_char(char c)
{
	if (c >= 'A' && c <= 'Z')
		return (int8_t) (c - 'A');
	if (c >= 'a' && c <= 'z')
		return (int8_t) (c - 'a' + 26);
	if (c >= '0' && c <= '9')
		return (int8_t) (c - '0' + 52);
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

static uint8_t decode(const char *src, uint8_t len, uint8_t *dst)
{
	uint8_t i, n = 0;

	for (i = 0; i + 3 < len; i = (uint8_t) (i + 4)) {
		uint32_t v = 0;
		uint8_t k, pad = 0;

		for (k = 0; k < 4; k++) {
			int8_t d = decode_char(src[i + k]);

			if (d < 0) {
				d = 0;
				pad++;
			}
			v = v << 6 | (uint8_t) d;
		}
		dst[n++] = (uint8_t) (v >> 16);
		if (pad < 2)
			dst[n++] = (uint8_t) (v >> 8);
		if (pad < 1)
			dst[n++] = (uint8_t) v;
	}
	return n;
}

int main(void)
{
	uint8_t data[LEN], back[LEN];
	char text[ENC_LEN];
	uint8_t seed = in_seed;
	uint32_t acc = 0;
	uint8_t i, n, pass;

	memcpy(data, "foobar", 6);
	if (encode(data, 6, text) != 8 || memcmp(text, "Zm9vYmFy", 8) != 0)
		acc = 0xdeadbeefUL;	/* wrong algorithm: show it in the sink */

	for (i = 0; i < LEN; i++) {
		seed = (uint8_t) (seed * 41 + 13);
		data[i] = seed;
	}
	for (pass = 0; pass < PASSES; pass++) {
		uint8_t len = (uint8_t) (LEN - pass);	/* 90, 89, 88: all three paddings */

		n = encode(data, len, text);
		if (decode(text, n, back) != len || memcmp(back, data, len) != 0)
			acc ^= 0x40000000UL;
		for (i = 0; i < n; i++)
			acc += (uint8_t) text[i];
		data[pass] ^= 0x5a;
	}

	sink = acc;
	return 0;
}
