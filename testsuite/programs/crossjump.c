/* A switch whose cases each push a value and count it: GCC's cross-jumping (-Os) makes the cases
 * share one copy of "call push; test its result; pushed++", which the line table gives one case's
 * blocks. The 24 opcodes hold 22 pushes (two 0s reset the stack before it fills), so push runs 22
 * times, never fails, and the shared copy runs 22 times: once per push, whichever case entered it. */
#include <stdint.h>
static const uint8_t prog[24] = {1, 2, 3, 1, 1, 2, 3, 3, 2, 1, 0, 2, 1, 3, 3, 1, 2, 2, 0, 1, 3, 2, 1, 1};
volatile uint8_t in = 7;
volatile uint16_t out;
static uint16_t stack[16];
static uint8_t sp, pushed, errors;

static uint8_t __attribute__((noinline)) push(uint16_t v)
{
	if (sp >= 16)
		return 0;
	stack[sp++] = v;
	return 1;
}

int main(void)
{
	uint16_t acc = in;
	for (uint8_t pc = 0; pc < sizeof prog; pc++) {
		switch (prog[pc]) {
		case 1:
			if (!push(acc + in))
				goto full;
			pushed++;
			break;
		case 2:
			if (!push(acc ^ 0x5a))
				goto full;
			pushed++;
			break;
		case 3:
			acc <<= 1;
			if (!push(acc))
				goto full;
			pushed++;
			break;
		default:
			sp = 0;
			break;
		}
		continue;
	full:
		errors++;
		sp = 0;
	}
	out = acc + sp + pushed + errors;
	return 0;
}
