/* kernel-crc16-ccitt: bitwise CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) over
 * a 48-byte frame, as used by XMODEM-style bootloaders and radio links; the first pass
 * checks the algorithm against the standard check value of "123456789" (0x29B1).
 * Exercises u16 shifts and xors with a data-dependent branch.  */
#include <stdint.h>

#define LEN 48
#define PASSES 8

volatile uint8_t in_seed = 0x5a;
volatile uint32_t sink;

static uint16_t crc16_ccitt(const uint8_t *data, uint8_t len)
{
	uint16_t crc = 0xffff;

	while (len--) {
		uint8_t bit;

		crc ^= (uint16_t) ((uint16_t) *data++ << 8);
		for (bit = 0; bit < 8; bit++) {
			if (crc & 0x8000)
				crc = (uint16_t) ((crc << 1) ^ 0x1021);
			else
				crc = (uint16_t) (crc << 1);
		}
	}
	return crc;
}

int main(void)
{
	uint8_t frame[LEN];
	uint8_t seed = in_seed;
	uint32_t acc = 0;
	uint8_t i, pass;

	for (i = 0; i < 9; i++)
		frame[i] = (uint8_t) ('1' + i);
	if (crc16_ccitt(frame, 9) != 0x29b1)
		acc = 0xdeadbeefUL;	/* wrong algorithm: show it in the sink */

	for (i = 0; i < LEN; i++) {
		seed = (uint8_t) (seed * 13 + 7);
		frame[i] = seed;
	}
	for (pass = 0; pass < PASSES; pass++) {
		uint16_t crc = crc16_ccitt(frame, LEN);

		acc = (acc << 16 | acc >> 16) ^ crc;
		frame[pass] = (uint8_t) crc;
		frame[LEN - 1 - pass] = (uint8_t) (crc >> 8);
	}

	sink = acc;
	return 0;
}
