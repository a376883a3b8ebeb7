/* kernel-bitpack: bit fields of 1 to 12 bits packed into a 128-byte stream LSB-first through
 * a u32 bit buffer and MSB-first at bit positions, then unpacked (u16 window when the field
 * fits, u32 otherwise), compared and checksummed.  The telemetry and codec packing of MCUs:
 * u16/u32 shifts by run-time amounts, masks, and/or, u8 array loads and stores.  */
#include <stdint.h>
#include <string.h>

#define BYTES 128
#define FIELDS 150		/* the widths average 6.5 bits: 975 of the 1024 bits */
#define PASSES 3
#define NWIDTHS 12

static const uint8_t widths[NWIDTHS] = {3, 5, 12, 1, 7, 9, 4, 11, 2, 8, 6, 10};

volatile uint16_t in_seed = 0x1d2bu;
volatile uint8_t in_rotate = 5;
volatile uint32_t sink;

static uint16_t xorshift16(uint16_t x)
{
	x ^= (uint16_t) (x << 7);
	x ^= (uint16_t) (x >> 9);
	x ^= (uint16_t) (x << 8);
	return x;
}

int main(void)
{
	uint8_t lsb[BYTES], msb[BYTES];
	uint16_t rnd = in_seed;
	uint8_t rot = in_rotate;
	uint16_t errors = 0, sum1 = 0, sum2 = 0;
	uint32_t acc = 0;
	uint8_t pass;
	uint16_t f, i;

	for (pass = 0; pass < PASSES; pass++) {
		uint32_t bitbuf = 0;
		uint8_t nbits = 0, w, k;
		uint8_t start = (uint8_t) (pass * rot % NWIDTHS);
		uint16_t pos = 0, bitpos = 0;
		uint16_t seed = rnd;

		memset(lsb, 0, sizeof lsb);
		memset(msb, 0, sizeof msb);

		/* pack: LSB-first through a bit buffer, MSB-first at absolute bit positions */
		k = start;
		for (f = 0; f < FIELDS; f++) {
			uint32_t mask, v, win;
			uint8_t off;

			w = widths[k];
			if (++k == NWIDTHS)
				k = 0;
			mask = ((uint32_t) 1 << w) - 1;
			rnd = xorshift16(rnd);
			v = rnd & mask;

			bitbuf |= v << nbits;
			nbits += w;
			while (nbits >= 8) {
				lsb[pos++] = (uint8_t) bitbuf;
				bitbuf >>= 8;
				nbits -= 8;
			}

			off = (uint8_t) (bitpos & 7);
			win = v << (24 - off - w);	/* the field within 3 bytes, MSB first */
			i = bitpos >> 3;
			msb[i] |= (uint8_t) (win >> 16);
			if (i + 1 < BYTES)
				msb[i + 1] |= (uint8_t) (win >> 8);
			if (i + 2 < BYTES)
				msb[i + 2] |= (uint8_t) win;
			bitpos += w;
		}
		if (nbits)
			lsb[pos] = (uint8_t) bitbuf;

		/* unpack both streams and compare them with the generator */
		bitbuf = 0;
		nbits = 0;
		pos = 0;
		bitpos = 0;
		k = start;
		for (f = 0; f < FIELDS; f++) {
			uint16_t mask16, a, b, expect;
			uint8_t off;

			w = widths[k];
			if (++k == NWIDTHS)
				k = 0;
			mask16 = (uint16_t) (((uint16_t) 1 << w) - 1);
			seed = xorshift16(seed);
			expect = seed & mask16;

			while (nbits < w) {
				bitbuf |= (uint32_t) lsb[pos++] << nbits;
				nbits += 8;
			}
			a = (uint16_t) bitbuf & mask16;
			bitbuf >>= w;
			nbits -= w;

			off = (uint8_t) (bitpos & 7);
			i = bitpos >> 3;
			if (off + w <= 16) {
				uint16_t win = (uint16_t) ((uint16_t) msb[i] << 8 | msb[i + 1]);

				b = (uint16_t) (win << off) >> (16 - w);
			} else {
				uint32_t win = (uint32_t) msb[i] << 16 | (uint16_t) msb[i + 1] << 8 | msb[i + 2];

				b = (uint16_t) ((win >> (24 - off - w)) & mask16);
			}
			bitpos += w;

			if (a != expect)
				errors++;
			if (b != expect)
				errors += 16;
			sum1 = (uint16_t) (sum1 + a);
			sum2 = (uint16_t) (sum2 ^ (uint16_t) (b << (f & 3)));
		}

		/* checksum of both streams: add, rotate and xor over the bytes */
		for (i = 0; i < BYTES; i++) {
			acc += lsb[i];
			acc = (acc << 1 | acc >> 31) ^ msb[i];
		}
	}

	sink = acc ^ ((uint32_t) sum1 << 16) ^ sum2 ^ ((uint32_t) errors << 24);
	return 0;
}
