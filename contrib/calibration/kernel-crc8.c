/* kernel-crc8: bitwise CRC-8 (polynomial 0x07, as in SMBus PEC and many sensor
 * protocols) over a 64-byte message, repeated with the message changing each pass.
 * A tight loop of u8 shifts, xors and a data-dependent branch: typical sensor-driver code.  */
#include <stdint.h>

#define LEN 64
#define PASSES 6

volatile uint8_t in_seed = 0x3c;
volatile uint32_t sink;

static uint8_t crc8(const uint8_t *data, uint8_t len)
{
	uint8_t crc = 0;

	while (len--) {
		uint8_t bit;

		crc ^= *data++;
		for (bit = 0; bit < 8; bit++) {
			if (crc & 0x80)
				crc = (uint8_t) ((crc << 1) ^ 0x07);
			else
				crc = (uint8_t) (crc << 1);
		}
	}
	return crc;
}

int main(void)
{
	uint8_t msg[LEN];
	uint8_t seed = in_seed;
	uint32_t acc = 0;
	uint8_t i, pass;

	for (i = 0; i < LEN; i++) {
		seed = (uint8_t) (seed * 17 + 31);
		msg[i] = seed;
	}
	for (pass = 0; pass < PASSES; pass++) {
		uint8_t crc = crc8(msg, LEN);

		acc = (acc << 8 | acc >> 24) ^ crc;
		msg[pass] ^= crc;
	}

	sink = acc;
	return 0;
}
