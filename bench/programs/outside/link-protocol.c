/* Outside the calibration corpus: a byte ring, a framing state machine with a CRC-16, small
 * structs passed by value and a call through a table of function pointers. */
#include <stdint.h>
#include <string.h>
typedef struct { int16_t x, y; } vec2;
typedef struct { uint8_t buf[32]; uint8_t head, tail; } ring;
static ring rx;
static int16_t hist[16];
static uint8_t hidx;
volatile uint8_t port;
volatile int32_t sink;
static void put(ring *r, uint8_t c) { r->buf[r->head++ & 31] = c; }
static int get(ring *r) { return r->head == r->tail ? -1 : r->buf[r->tail++ & 31]; }
static vec2 add(vec2 a, vec2 b) { vec2 c = { a.x + b.x, a.y + b.y }; return c; }
static int32_t dot(vec2 a, vec2 b) { return (int32_t)a.x * b.x + (int32_t)a.y * b.y; }
static int16_t filt(int16_t v)
{
	hist[hidx++ & 15] = v;
	int32_t s = 0;
	for (uint8_t i = 0; i < 16; i++)
		s += hist[i] * (int16_t)(i + 1);
	return (int16_t)(s >> 7);
}
enum st { IDLE, HDR, BODY, END };
static int32_t (*ops[3])(vec2, vec2) = { dot, dot, dot };
int main(void)
{
	enum st s = IDLE;
	vec2 acc = { 0, 0 };
	uint16_t crc = 0xffff;
	for (uint16_t n = 0; n < 600; n++) {
		put(&rx, (uint8_t)(n * 37 + (n >> 3)));
		int c;
		while ((c = get(&rx)) >= 0) {
			switch (s) {
			case IDLE: if (c == 0x55 || (c & 7) == 3) s = HDR; break;
			case HDR: s = (c & 1) ? BODY : IDLE; break;
			case BODY:
				crc ^= (uint16_t)c << 8;
				for (uint8_t b = 0; b < 8; b++)
					crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
				if ((c & 15) == 9) s = END;
				break;
			case END: {
				vec2 v = { (int16_t)(c - 128), (int16_t)filt((int16_t)c) };
				acc = add(acc, v);
				sink += ops[c % 3](acc, v);
				s = IDLE;
				break;
			}
			}
		}
		port = (uint8_t)crc;
	}
	sink += acc.x + acc.y + crc;
	return 0;
}
