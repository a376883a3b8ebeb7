/* kernel-lfsr-prbs: a link test's pseudo-random bit sequences from Galois LFSRs (PRBS-31 as
 * a 32-bit register, a 16-bit one for the reference) with the tap mask chosen branch-free as
 * -(x & 1), checked against a copy with injected errors and counted per byte.  Negation as
 * a mask, constant shifts by one, xors and ands at 16 and 32 bits.  */
#include <stdint.h>

#define BYTES 96

volatile uint32_t in_seed32 = 0x2badcafeUL;
volatile uint16_t in_seed16 = 0xace1u;
volatile uint8_t in_every = 29;
volatile uint32_t sink;

static uint32_t lfsr32(uint32_t x)
{
	return (x >> 1) ^ (-(x & 1u) & 0xa3000000UL);
}

static uint16_t lfsr16(uint16_t x)
{
	return (uint16_t) ((x >> 1) ^ (-(x & 1u) & 0xb400u));
}

int main(void)
{
	uint32_t tx = in_seed32, rx = in_seed32;
	uint16_t ref = in_seed16;
	uint8_t every = in_every;
	uint16_t errors = 0, ones = 0;
	uint32_t acc = 0;
	uint8_t i, b;

	for (i = 0; i < BYTES; i++) {
		uint8_t sent = 0, got = 0, diff;

		for (b = 0; b < 8; b++) {
			tx = lfsr32(tx);
			rx = lfsr32(rx);
			ref = lfsr16(ref);
			sent = (uint8_t) ((sent << 1) | (tx & 1u));
			got = (uint8_t) ((got << 1) | (rx & 1u));
		}
		if (i % every == 3)
			got ^= (uint8_t) (ref & 0x11u);	/* a burst on the line */
		diff = (uint8_t) (sent ^ got);
		while (diff) {
			errors++;
			diff &= (uint8_t) (diff - 1u);
		}
		ones = (uint16_t) (ones + (sent & 1u));
		acc += (uint32_t) sent << (i & 7u);
	}

	sink = acc + tx + ref + ((uint32_t) errors << 16) + ones;
	return 0;
}
