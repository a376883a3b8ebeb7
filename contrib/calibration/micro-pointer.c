/* micro-pointer: loads and stores through pointers: *p, *p++ walks over u8/u16/u32
 * buffers, p[k] with a pointer base, pointer differences and comparisons, and a pointer
 * to pointer.  AVR addresses through X/Y/Z with post-increment, which is cheaper than an
 * indexed array access; this program lets the fit see that difference.  */
#include <stdint.h>

#define N 40
#define ROUNDS 20

volatile uint8_t in_seed = 11;
volatile uint32_t sink;

static void fill(uint8_t *dst, uint8_t n, uint8_t seed)
{
	uint8_t *end = dst + n;

	while (dst < end) {
		seed = (uint8_t) (seed * 29 + 7);
		*dst++ = seed;
	}
}

int main(void)
{
	uint8_t buf8[N];
	uint16_t buf16[N];
	uint32_t buf32[N / 2];
	uint8_t *tables[2];
	uint8_t **pp = tables;
	uint16_t sum16 = 0;
	uint32_t sum32 = 0;
	uint16_t r;

	fill(buf8, N, in_seed);
	tables[0] = buf8;
	tables[1] = buf8 + N / 2;

	for (r = 0; r < ROUNDS; r++) {
		const uint8_t *src = buf8;
		uint16_t *d16 = buf16;
		uint32_t *d32 = buf32;
		const uint16_t *s16;
		const uint32_t *s32;
		uint8_t *lo, *hi;

		/* *p++ copy-and-widen walks */
		while (src < buf8 + N)
			*d16++ = (uint16_t) (*src++ * 3u + r);
		for (s16 = buf16; s16 != buf16 + N; s16 += 2)
			*d32++ = (uint32_t) s16[0] << 16 | s16[1];
		/* read back through pointers, with a pointer base and offset */
		for (s32 = buf32; s32 < buf32 + N / 2; s32++)
			sum32 += *s32 ^ s32[0] >> 3;
		for (s16 = buf16 + N - 1; s16 >= buf16 + 1; s16--)
			sum16 = (uint16_t) (sum16 + (uint16_t) (*s16 - *(s16 - 1)));
		/* two pointers meeting in the middle: reverse in place */
		lo = buf8;
		hi = buf8 + N - 1;
		while (lo < hi) {
			uint8_t t = *lo;

			*lo++ = *hi;
			*hi-- = (uint8_t) (t + 1);
		}
		/* pointer to pointer, pointer difference */
		sum16 = (uint16_t) (sum16 + (*pp)[r % 4] + pp[1][3] + (uint16_t) (hi - lo));
		pp[r & 1][0] ^= (uint8_t) sum16;
	}

	sink = sum32 + sum16;
	return 0;
}
