/* values.c — operations whose cost grows with a run-time value: a shift by a
 * variable amount (1 + 3 + 7 + 12 = 23 bits), memset of n + 1 bytes
 * (2 + 4 + 8 + 13 = 27), memcpy of n bytes (23) and strlen of the n + 1 bytes
 * set (27: the byte after them is cleared), four times each in a loop; and a
 * 64-bit shift by the same amounts, whose steps are the passes of avr's
 * routine, a byte's and then a bit's: 1 + 3 + 7 + (1 + 4) = 16, and a 64-bit
 * right rotate, which is avr's left rotate by 64 - n: 63, 61, 57 and 52 bits
 * in (7 + 7) + (7 + 5) + (7 + 1) + (6 + 4) = 44 passes; a single-precision
 * add and subtract of 1.5 and 2^-2, 2^-9, 2^-20, 2^-40, whose mantissas are
 * aligned over exponents 2, 9, 20 and 40 apart: 2 + (1 + 1) + (2 + 4) + 0
 * (more than 32 apart: no alignment) = 10 passes each.
 * Portable: the same sums on the host and on AVR.  */
#include <stdint.h>
#include <string.h>

volatile uint8_t amounts[4] = {1, 3, 7, 12};
volatile uint64_t wide = 0x0123456789abcdefull;
volatile float one_and_half = 1.5f;
volatile float smalls[4] = {0.25f, 0x1p-9f, 0x1p-20f, 0x1p-40f};
volatile uint32_t sink;

int main(void)
{
	uint16_t x = 0xbeef;
	uint8_t buf[32], copy[32];
	uint32_t acc = 0;
	uint8_t i;

	for (i = 0; i < 4; i++) {
		uint8_t n = amounts[i];

		acc += (uint16_t) (x >> n);
		uint64_t w = wide;
		uint64_t rotated = w >> n | w << (64 - n);

		acc += (uint32_t) (w >> n) + (uint32_t) rotated;
		float b = smalls[i], a = one_and_half;
		/* (b first in the add: its exponent is the smaller) */
		acc += (uint32_t) ((b + a) * 8.0f) ^ (uint32_t) ((a - b) * 8.0f);
		memset(buf, n, n + 1u);
		memcpy(copy, buf, n);
		buf[n + 1u] = 0;
		acc += (uint32_t) strlen((const char *) buf);
	}
	sink = acc + copy[0];
	return 0;
}
