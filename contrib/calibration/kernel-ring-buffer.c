/* kernel-ring-buffer: a 32-byte FIFO with u8 head/tail indices (power-of-two size,
 * wrapped with a mask) and a 24-entry u16 queue (wrapped with a compare), as between an
 * interrupt handler and the main loop: bursts of pushes and pops, full and empty checks,
 * dropped bytes on overflow.  Struct field access, small index arithmetic, branches.  */
#include <stdint.h>
#include <stdbool.h>

#define FIFO_SIZE 32u
#define QUEUE_SIZE 24u
#define ROUNDS 150

struct fifo {
	uint8_t buf[FIFO_SIZE];
	uint8_t head, tail;	/* free-running; the mask makes them indices */
	uint16_t dropped;
};

struct queue {
	uint16_t item[QUEUE_SIZE];
	uint8_t head, tail, count;
};

volatile uint8_t in_seed = 0x33;
volatile uint32_t sink;

static bool fifo_push(struct fifo *f, uint8_t byte)
{
	if ((uint8_t) (f->head - f->tail) == FIFO_SIZE) {
		f->dropped++;
		return false;
	}
	f->buf[f->head & (FIFO_SIZE - 1)] = byte;
	f->head++;
	return true;
}

static bool fifo_pop(struct fifo *f, uint8_t *byte)
{
	if (f->head == f->tail)
		return false;
	*byte = f->buf[f->tail & (FIFO_SIZE - 1)];
	f->tail++;
	return true;
}

static bool queue_put(struct queue *q, uint16_t v)
{
	if (q->count == QUEUE_SIZE)
		return false;
	q->item[q->head] = v;
	if (++q->head == QUEUE_SIZE)
		q->head = 0;
	q->count++;
	return true;
}

static bool queue_get(struct queue *q, uint16_t *v)
{
	if (q->count == 0)
		return false;
	*v = q->item[q->tail];
	if (++q->tail == QUEUE_SIZE)
		q->tail = 0;
	q->count--;
	return true;
}

int main(void)
{
	struct fifo rx = {{0}, 0, 0, 0};
	struct queue words = {{0}, 0, 0, 0};
	uint8_t rnd = in_seed;
	uint32_t acc = 0;
	uint16_t r;

	for (r = 0; r < ROUNDS; r++) {
		uint8_t burst, k, byte;
		uint16_t w;

		rnd = (uint8_t) (rnd * 109 + 89);
		burst = (uint8_t) (rnd & 7);		/* producer: 0..7 bytes */
		for (k = 0; k < burst; k++)
			fifo_push(&rx, (uint8_t) (rnd + k));
		/* consumer: pairs of bytes become words, fewer per round than produced */
		for (k = 0; k < 2; k++) {
			uint8_t hi;

			if (!fifo_pop(&rx, &hi) || !fifo_pop(&rx, &byte))
				break;
			if (!queue_put(&words, (uint16_t) ((uint16_t) hi << 8 | byte)))
				acc += 1000;
		}
		if ((rnd & 3) == 0)
			while (queue_get(&words, &w))
				acc += w;
	}

	sink = acc + ((uint32_t) rx.dropped << 20) + words.count;
	return 0;
}
