/* kernel-bsd-sum: the BSD `sum` checksum (rotate right by one, add the byte) and a
 * two-byte-at-a-time variant over 256-byte blocks, with the block's running totals kept in
 * a local struct that a helper updates through a pointer, as a bootloader verifying flash
 * pages does.  16-bit rotates, byte and word loads, and locals accessed by address.  */
#include <stdint.h>

#define BLOCK 256u
#define BLOCKS 3

volatile uint8_t in_seed = 0x3c;
volatile uint32_t sink;

struct totals {
	uint16_t sum;
	uint8_t last;
	uint8_t zeros;
};

static void add_byte(struct totals *t, uint8_t c)
{
	t->sum = (uint16_t) ((t->sum >> 1) | ((unsigned) t->sum << 15));
	t->sum = (uint16_t) (t->sum + c);
	if (c == 0)
		t->zeros++;
	t->last = c;
}

static uint16_t bsd_words(const uint8_t *p, uint16_t n)
{
	uint16_t sum = 0, i;

	for (i = 0; i + 1u < n; i += 2) {
		uint16_t w = (uint16_t) (p[i] | (uint16_t) p[i + 1] << 8);

		sum = (uint16_t) ((sum >> 1) | ((unsigned) sum << 15));
		sum = (uint16_t) (sum + w);
	}
	return sum;
}

int main(void)
{
	uint8_t page[BLOCK];
	struct totals t = {0, 0, 0};
	uint8_t x = in_seed;
	uint32_t acc = 0;
	uint16_t i;
	uint8_t k;

	for (k = 0; k < BLOCKS; k++) {
		for (i = 0; i < BLOCK; i++) {
			x = (uint8_t) (x * 5u + 1u);
			page[i] = (uint8_t) ((x & 0x70u) ? x : 0);
		}
		t.sum = 0;
		for (i = 0; i < BLOCK; i++)
			add_byte(&t, page[i]);
		acc += t.sum;
		acc += bsd_words(page, BLOCK);
		acc += t.last;
	}

	sink = acc + ((uint32_t) t.zeros << 20);
	return 0;
}
