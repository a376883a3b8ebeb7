/* kernel-state-machine: a byte-at-a-time parser for a framed serial protocol
 * (SYNC 0xA5, command, length, payload, XOR checksum) driven by a switch on its state,
 * fed a generated stream of valid frames, bad checksums, oversize lengths and noise.
 * The UART receive handler of countless devices: dispatch, compares, small counters.  */
#include <stdint.h>

#define SYNC 0xa5
#define MAX_PAYLOAD 16
#define STREAM 200
#define PASSES 4

enum state { WAIT_SYNC, GET_CMD, GET_LEN, GET_PAYLOAD, GET_CHECK };

struct parser {
	enum state state;
	uint8_t cmd, len, got, check;
	uint8_t payload[MAX_PAYLOAD];
	uint16_t frames, errors;
	uint32_t value;
};

volatile uint8_t in_seed = 0x42;
volatile uint32_t sink;

static void handle_frame(struct parser *p)
{
	uint8_t i;

	switch (p->cmd) {
	case 1:				/* set: value = payload as little-endian */
		p->value = 0;
		for (i = 0; i < p->len && i < 4; i++)
			p->value |= (uint32_t) p->payload[i] << (8 * i);
		break;
	case 2:				/* add every byte */
		for (i = 0; i < p->len; i++)
			p->value += p->payload[i];
		break;
	case 3:				/* reset */
		p->value = 0;
		break;
	default:
		p->errors++;
		break;
	}
	p->frames++;
}

static void feed(struct parser *p, uint8_t byte)
{
	switch (p->state) {
	case WAIT_SYNC:
		if (byte == SYNC)
			p->state = GET_CMD;
		break;
	case GET_CMD:
		p->cmd = byte;
		p->check = byte;
		p->state = GET_LEN;
		break;
	case GET_LEN:
		if (byte > MAX_PAYLOAD) {
			p->errors++;
			p->state = WAIT_SYNC;
			break;
		}
		p->len = byte;
		p->got = 0;
		p->check ^= byte;
		p->state = byte ? GET_PAYLOAD : GET_CHECK;
		break;
	case GET_PAYLOAD:
		p->payload[p->got++] = byte;
		p->check ^= byte;
		if (p->got == p->len)
			p->state = GET_CHECK;
		break;
	case GET_CHECK:
		if (byte == p->check)
			handle_frame(p);
		else
			p->errors++;
		p->state = WAIT_SYNC;
		break;
	}
}

/* Writes one frame (or some noise) at out, returns its length. */
static uint8_t make_frame(uint8_t *out, uint8_t rnd)
{
	uint8_t len = rnd & 7, i, check;
	uint8_t n = 0;

	if ((rnd & 0x30) == 0x30) {	/* noise */
		out[n++] = (uint8_t) (rnd ^ 0x5a);
		out[n++] = rnd;
		return n;
	}
	out[n++] = SYNC;
	out[n++] = (uint8_t) (1 + (rnd >> 6));	/* commands 1..4; 4 is unknown */
	out[n++] = (rnd & 0x48) == 0x48 ? 40 : len;	/* sometimes oversize */
	check = (uint8_t) (out[1] ^ out[2]);
	for (i = 0; i < len; i++) {
		out[n] = (uint8_t) (rnd + i * 3);
		check ^= out[n++];
	}
	out[n++] = (rnd & 0x84) == 0x84 ? (uint8_t) ~check : check;	/* sometimes bad */
	return n;
}

int main(void)
{
	uint8_t stream[STREAM];
	struct parser p = {WAIT_SYNC, 0, 0, 0, 0, {0}, 0, 0, 0};
	uint8_t rnd = in_seed;
	uint32_t acc = 0;
	uint8_t pass, used, i;

	for (pass = 0; pass < PASSES; pass++) {
		used = 0;
		while (used < STREAM - 12) {
			rnd = (uint8_t) (rnd * 109 + 89);
			used = (uint8_t) (used + make_frame(stream + used, rnd));
		}
		for (i = 0; i < used; i++)
			feed(&p, stream[i]);
		acc += p.value ^ p.frames;
	}

	sink = acc + ((uint32_t) p.errors << 16);
	return 0;
}
