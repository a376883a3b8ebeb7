/* kernel-packet: builds 48 packets of 0 to 100 payload bytes in a 128-byte frame (header
 * struct memcpy'd in, payload memcpy'd, padding memset to a 16-byte boundary, a 16-bit
 * checksum at the end), then checks and parses each one back out, as a radio or serial
 * link layer does.  memcpy/memset with run-time lengths, u8/u16 array and field access. */
#include <stdint.h>
#include <string.h>

#define FRAME 128u
#define POOL 112u
#define PACKETS 48
#define MAX_PAYLOAD 100u
#define PAD_TO 16u

/* type and flags first, so the struct has no padding on the AVR or the host (6 bytes) */
struct header {
	uint8_t type;
	uint8_t flags;
	uint16_t length;
	uint16_t seq;
};

#define HDR ((uint8_t) sizeof(struct header))

volatile uint8_t in_seed = 0x5a;
volatile uint16_t in_seq = 1000;
volatile uint32_t sink;

static uint16_t checksum(const uint8_t *p, uint8_t len)
{
	uint16_t sum = 0;
	uint8_t i;

	for (i = 0; i < len; i++) {
		sum = (uint16_t) ((sum << 1) | (sum >> 15));	/* rotate, then add */
		sum = (uint16_t) (sum + p[i]);
	}
	return sum;
}

/* builds a frame and returns its length, a multiple of PAD_TO */
static uint8_t build(uint8_t *frame, const struct header *h, const uint8_t *payload)
{
	uint8_t used = (uint8_t) (HDR + h->length);
	uint8_t total = (uint8_t) ((used + 2u + PAD_TO - 1u) & ~(PAD_TO - 1u));
	uint16_t sum;

	memcpy(frame, h, sizeof *h);
	memcpy(frame + HDR, payload, h->length);
	memset(frame + used, 0, (size_t) (total - 2u - used));
	sum = checksum(frame, (uint8_t) (total - 2u));
	frame[total - 2u] = (uint8_t) (sum >> 8);
	frame[total - 1u] = (uint8_t) sum;
	return total;
}

/* checks a frame and copies its payload out; returns the payload length or 0xff */
static uint8_t parse(const uint8_t *frame, uint8_t total, struct header *h, uint8_t *out)
{
	uint16_t sum = (uint16_t) ((uint16_t) frame[total - 2u] << 8 | frame[total - 1u]);

	if (checksum(frame, (uint8_t) (total - 2u)) != sum)
		return 0xff;
	memcpy(h, frame, sizeof *h);
	if (h->length > MAX_PAYLOAD || (uint16_t) (HDR + h->length) > (uint16_t) (total - 2u))
		return 0xff;
	memcpy(out, frame + HDR, h->length);
	return (uint8_t) h->length;
}

int main(void)
{
	uint8_t frame[FRAME], pool[POOL], payload[MAX_PAYLOAD];
	struct header h, got;
	uint8_t rnd = in_seed;
	uint16_t seq = in_seq;
	uint32_t acc = 0;
	uint8_t i, n, total, len;

	for (i = 0; i < POOL; i++) {
		rnd = (uint8_t) (rnd * 109 + 89);
		pool[i] = rnd;
	}

	for (n = 0; n < PACKETS; n++) {
		uint8_t at;

		rnd = (uint8_t) (rnd * 109 + 89);
		h.type = (uint8_t) (rnd & 3);
		h.flags = (uint8_t) (n & 1 ? 0x80 : 0);
		h.length = (uint16_t) (rnd % (MAX_PAYLOAD + 1u));
		h.seq = seq++;
		at = (uint8_t) (rnd & 7);			/* payload comes from pool + at */
		total = build(frame, &h, pool + at);
		if ((n & 7) == 5)
			frame[HDR + 1u] ^= 0x10;		/* damage one in eight */

		len = parse(frame, total, &got, payload);
		if (len == 0xff) {
			acc += 0x10000ul;			/* rejected */
			continue;
		}
		acc += got.seq;
		acc += (uint32_t) got.type << 12;
		if (got.flags & 0x80)
			acc += total;
		for (i = 0; i < len; i++)
			acc += payload[i];
	}

	sink = acc;
	return 0;
}
