/* micro-call: calls of small non-inlined functions with 0 to 4 arguments of u8, i16,
 * u32 and pointer type, returning void, u8, u16 and u32.  The call, return, argument
 * set-up and prologue/epilogue are what a call costs on AVR beyond the callee's body;
 * the bodies are kept to an operation or two so that cost dominates.  */
#include <stdint.h>

#define ROUNDS 200

volatile uint8_t in_seed = 9;
volatile uint32_t sink;

static uint16_t counter;

__attribute__((noinline)) static void tick(void)
{
	counter++;
}

__attribute__((noinline)) static uint8_t next8(void)
{
	return (uint8_t) counter;
}

__attribute__((noinline)) static uint8_t twice(uint8_t x)
{
	return (uint8_t) (x << 1);
}

__attribute__((noinline)) static int16_t diff(int16_t a, int16_t b)
{
	return (int16_t) (a - b);
}

__attribute__((noinline)) static uint32_t mix(uint32_t a, uint8_t b, uint16_t c)
{
	return (a ^ c) + b;
}

__attribute__((noinline)) static uint16_t sum4(uint8_t a, uint16_t b, uint16_t c, const uint8_t *p)
{
	return (uint16_t) (a + b + c + *p);
}

__attribute__((noinline)) static void store(uint32_t *dst, uint32_t v)
{
	*dst = v;
}

int main(void)
{
	uint8_t seed = in_seed;
	uint8_t b = seed;
	int16_t d = 0;
	uint16_t s = 0;
	uint32_t acc = 0, slot = 0;
	uint16_t r;

	for (r = 0; r < ROUNDS; r++) {
		tick();
		b = (uint8_t) (twice(b) + next8());
		d = diff((int16_t) (r & 0x3ff), d);
		acc = mix(acc, b, r);
		s = sum4(b, s, (uint16_t) d, &seed);
		store(&slot, acc + s);
	}

	sink = slot + (uint16_t) d + counter;
	return 0;
}
