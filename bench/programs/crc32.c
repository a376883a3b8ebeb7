/* crc32.c — bitwise CRC-32 (IEEE) of 64 KiB, eight times: a tight loop of
 * shifts, xors and a data-dependent branch, as in firmware without tables.  */
#include <stdint.h>
#include <stdio.h>

static uint8_t buffer[65536];

static uint32_t crc32(const uint8_t *p, unsigned n)
{
	uint32_t crc = 0xffffffffu;
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
	}
	return ~crc;
}

int main(void)
{
	uint32_t x = 1, sum = 0;
	for (unsigned i = 0; i < sizeof buffer; i++) {
		x = x * 1103515245u + 12345u;
		buffer[i] = (uint8_t) (x >> 16);
	}
	for (int round = 0; round < 8; round++) {
		buffer[round] ^= (uint8_t) round;
		sum += crc32(buffer, sizeof buffer);
	}
	printf("%08x\n", (unsigned) sum);
	return 0;
}
