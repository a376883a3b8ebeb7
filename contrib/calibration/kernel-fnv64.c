/* kernel-fnv64: 64-bit hashing as a key-value store or a duplicate filter does it: FNV-1a 64
 * over keys of 1-16 bytes (checked against "foobar"), mixed with splitmix64, buckets picked
 * by a run-time shift, a variable rotate, min/max and duplicate checks.  u64/i64 multiplies,
 * adds, xors, shifts by constants (7, 13, 17, 27, 30, 31, 56) and variables, compares.  */
#include <stdint.h>

#define BUF 64
#define KEYS 20
#define PASSES 2

volatile uint64_t in_seed = 0x0123456789abcdefull;
volatile uint8_t in_bits = 3;
volatile uint32_t sink;

static uint64_t fnv1a64(const uint8_t *p, uint8_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z;

	*state += 0x9e3779b97f4a7c15ull;
	z = *state;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t xorshift64(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

static uint64_t rotl64(uint64_t x, uint8_t r)	/* 1 <= r <= 63 */
{
	return x << r | x >> (64 - r);
}

int main(void)
{
	static const uint8_t foobar[6] = {'f', 'o', 'o', 'b', 'a', 'r'};
	uint8_t buf[BUF];
	uint64_t hashes[KEYS];
	uint8_t counts[8] = {0};
	uint64_t x = in_seed, state, lo, hi, folded = 0;
	int64_t balance = 0, spread;
	uint8_t bits = in_bits, i, k, pass, dups = 0;

	if (fnv1a64(foobar, sizeof foobar) != 0x85944171f73967e8ull)
		folded = 0xdeadbeefull;	/* wrong algorithm: show it in the sink */

	for (i = 0; i < BUF; i++) {
		x = xorshift64(x);
		buf[i] = (uint8_t) (x >> 56);
	}

	state = x;
	for (pass = 0; pass < PASSES; pass++) {
		lo = ~0ull;
		hi = 0;
		for (k = 0; k < KEYS; k++) {
			uint8_t key = (uint8_t) (k % 13);	/* keys 13..19 repeat */
			uint8_t len = (uint8_t) (1 + (buf[key] & 15));
			uint8_t off = (uint8_t) (key * 3 + pass);
			uint64_t h = fnv1a64(buf + off, len);
			uint64_t m = h ^ splitmix64(&state);
			uint8_t r = (uint8_t) (((k * 5 + 3) & 63) | 1);
			uint8_t j;

			for (j = 0; j < k; j++)
				if (hashes[j] == h)
					dups++;
			hashes[k] = h;
			counts[(uint8_t) (m >> (64 - bits))]++;
			if (m > hi)
				hi = m;
			if (m < lo)
				lo = m;
			if ((int64_t) (m >> 1) > (int64_t) (h >> 1))
				balance += (int64_t) (m >> 40);
			else
				balance -= (int64_t) (h >> 40);
			folded += rotl64(m, r);
		}
		spread = (int64_t) (hi >> 2) - (int64_t) (lo >> 2);
		folded ^= (uint64_t) spread;
		buf[pass] ^= (uint8_t) folded;
	}

	for (i = 0; i < 8; i++)
		folded = folded * 31 + counts[i];
	sink = (uint32_t) (folded >> 32) ^ (uint32_t) folded ^ (uint32_t) balance ^ dups;
	return 0;
}
