/* micro-switch: a dense switch (cases 0..9, which GCC compiles to a jump table) and a
 * sparse one (scattered 16-bit case values, compiled to a compare tree), both including
 * the default.  Switches are how firmware decodes commands and states; their dispatch
 * cost differs from an if-chain's and from each other's.  */
#include <stdint.h>

#define ROUNDS 800

volatile uint16_t in_seed = 12345;
volatile uint32_t sink;

/* the sparse switch's keys: its seven cases and two values that fall to the default */
static const uint16_t keys[16] = {
	0x0000, 0x0003, 0x0107, 0x020a, 0x0f00, 0x1004, 0x1e0e, 0x0555,
	0x1e0e, 0x1004, 0x0f00, 0x020a, 0x0107, 0x0003, 0x0000, 0x1e0f
};

int main(void)
{
	uint16_t x = in_seed;
	uint32_t acc = 0;
	uint16_t code = 0;
	uint16_t r;

	for (r = 0; r < ROUNDS; r++) {
		uint8_t op;

		x = (uint16_t) (x * 25173u + 13849u);
		op = (uint8_t) (x >> 12);	/* 0 .. 15: 10 .. 15 go to the default */

		switch (op) {	/* dense */
		case 0: acc += 1; break;
		case 1: acc += x; break;
		case 2: acc ^= x; break;
		case 3: acc -= 3; break;
		case 4: acc += acc >> 4; break;
		case 5: code = (uint16_t) (code + 5); break;
		case 6: acc = acc << 1; break;
		case 7: code = (uint16_t) (code ^ x); break;
		case 8: acc += 8; /* fall through */
		case 9: acc += code; break;
		default: code = (uint16_t) (code + 1); break;
		}

		switch (keys[(x ^ code) & 15]) {	/* sparse */
		case 0x0000: acc += 100; break;
		case 0x0003: acc += 3; break;
		case 0x0107: acc ^= 0x107; break;
		case 0x020a: acc += 0x20a; break;
		case 0x0f00: acc -= 15; break;
		case 0x1004: code = (uint16_t) (code + 11); break;
		case 0x1e0e: acc += 7; break;
		default: code = (uint16_t) (code + (uint16_t) (x & 3)); break;
		}
	}

	sink = acc + code;
	return 0;
}
