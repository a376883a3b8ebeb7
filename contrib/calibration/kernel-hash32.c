/* kernel-hash32: 32-bit hashes of a firmware key store: Jenkins one-at-a-time and MurmurHash3
 * over strings (checked against published values), xxHash32 over a word buffer read through
 * uint32_t pointers, murmur3's finalizer bucketing every word by its top bits.  u32 shifts
 * and rotates by many constants, pointer walks with <, <= and >, u32 multiplies.  */
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#define WORDS 48
#define PASSES 3

#define ROTL(x, r) ((x) << (r) | (x) >> (32 - (r)))
#define P1 2654435761ul
#define P2 2246822519ul
#define P3 3266489917ul
#define P4 668265263ul
#define P5 374761393ul

static const char fox[] = "The quick brown fox jumps over the lazy dog";

volatile uint32_t in_seed = 0x12345678ul;
volatile uint32_t sink;

static uint32_t one_at_a_time(const uint8_t *p, const uint8_t *end)
{
	uint32_t h = 0;

	while (p < end) {
		h += *p++;
		h += h << 10;
		h ^= h >> 6;
	}
	h += h << 3;
	h ^= h >> 11;
	h += h << 15;
	return h;
}

static uint32_t fmix32(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bul;
	h ^= h >> 13;
	h *= 0xc2b2ae35ul;
	h ^= h >> 16;
	return h;
}

static uint32_t murmur3_32(const uint8_t *p, uint8_t len, uint32_t seed)
{
	const uint8_t *last = p + (len & ~3u);
	uint32_t h = seed, k = 0;

	for (; p < last; p += 4) {
		k = (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
		k *= 0xcc9e2d51ul;
		k = ROTL(k, 15);
		k *= 0x1b873593ul;
		h ^= k;
		h = ROTL(h, 13);
		h = h * 5 + 0xe6546b64ul;
	}
	k = 0;
	switch (len & 3) {
	case 3:
		k ^= (uint32_t) p[2] << 16;
		/* fall through */
	case 2:
		k ^= (uint32_t) p[1] << 8;
		/* fall through */
	case 1:
		k ^= p[0];
		k *= 0xcc9e2d51ul;
		k = ROTL(k, 15);
		k *= 0x1b873593ul;
		h ^= k;
	}
	return fmix32(h ^ len);
}

static uint32_t xxh32_round(uint32_t acc, uint32_t w)
{
	acc += w * P2;
	acc = ROTL(acc, 13);
	return acc * P1;
}

/* xxHash32 of n little-endian words, read a word at a time */
static uint32_t xxh32_words(const uint32_t *p, uint8_t n, uint32_t seed)
{
	const uint32_t *end = p + n;
	uint32_t h;

	if (n >= 4) {
		const uint32_t *last = end - 4;
		uint32_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;

		do {
			v1 = xxh32_round(v1, *p++);
			v2 = xxh32_round(v2, *p++);
			v3 = xxh32_round(v3, *p++);
			v4 = xxh32_round(v4, *p++);
		} while (p <= last);
		h = ROTL(v1, 1) + ROTL(v2, 7) + ROTL(v3, 12) + ROTL(v4, 18);
	} else {
		h = seed + P5;
	}
	h += (uint32_t) n * 4;
	while (p < end) {
		h += *p++ * P3;
		h = ROTL(h, 17) * P4;
	}
	h ^= h >> 15;
	h *= P2;
	h ^= h >> 13;
	h *= P3;
	h ^= h >> 16;
	return h;
}

int main(void)
{
	uint32_t words[WORDS];
	uint8_t text[sizeof fox];
	uint8_t top8[8] = {0}, top32[32] = {0};
	uint32_t x = in_seed, acc = 0;
	const uint32_t *p;
	uint8_t i, pass;
	bool ok;

	memcpy(text, fox, sizeof fox);
	ok = one_at_a_time(text, text + sizeof fox - 1) == 0x519e91f5ul &&
	     murmur3_32((const uint8_t *) "test", 4, 0) == 0xba6bd213ul;

	for (i = 0; i < WORDS; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		words[i] = x;
	}

	for (pass = 0; pass < PASSES; pass++) {
		const uint32_t *start = words;

		acc ^= xxh32_words(words, (uint8_t) (WORDS - pass * 7), acc);
		acc ^= murmur3_32(text, (uint8_t) (sizeof fox - 1 - pass * 3), acc);
		acc += one_at_a_time(text + pass, text + sizeof fox - 1);

		for (p = words; p < words + WORDS; p++) {
			uint32_t h = fmix32(*p ^ pass);

			top8[h >> 29]++;
			top32[h >> 27]++;
		}
		/* the last word, from the end, whose top three bits are clear */
		for (p = words + WORDS; p > start; ) {
			--p;
			if (*p >> 29 == 0)
				break;
		}
		acc += (uint32_t) (p - start);
		words[pass] ^= acc;
		text[pass] ^= (uint8_t) acc;
	}

	for (i = 0; i < 32; i++)
		acc = acc * 3 + top32[i] + top8[i & 7];
	sink = ok ? acc : ~acc;
	return 0;
}
