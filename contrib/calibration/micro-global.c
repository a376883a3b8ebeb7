/* micro-global: the same counter and accumulator updates done once on global variables
 * (static and external, u8/u16/u32, plus a global array) and once on locals.  On AVR a
 * global is LDS/STS at a fixed address while a local lives in registers or the stack
 * frame, so the fit needs both kinds of access.  */
#include <stdint.h>

#define N 16
#define ROUNDS 40

volatile uint8_t in_u8[N] = {3, 200, 17, 255, 0, 91, 128, 44, 9, 100, 101, 7, 250, 60, 61, 127};
volatile uint32_t sink;

uint8_t g_count;
uint16_t g_sum16;
uint32_t g_sum32;
static uint8_t g_last;
static int16_t g_delta;
static uint8_t g_data[N];

static void with_globals(void)
{
	uint8_t i;

	for (i = 0; i < N; i++) {
		g_count++;
		g_sum16 = (uint16_t) (g_sum16 + g_data[i]);
		g_sum32 += g_sum16;
		g_delta = (int16_t) (g_delta + g_data[i] - g_last);
		g_last = g_data[i];
		if (g_delta > 200)
			g_delta = (int16_t) (g_delta - 200);
		g_data[i] = (uint8_t) (g_data[i] + g_count);
	}
}

int main(void)
{
	uint8_t data[N];
	uint8_t count = 0, last = 0;
	uint16_t sum16 = 0;
	uint32_t sum32 = 0;
	int16_t delta = 0;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++) {
		data[i] = in_u8[i];
		g_data[i] = in_u8[i];
	}

	for (r = 0; r < ROUNDS; r++) {
		with_globals();
		/* the same work on locals */
		for (i = 0; i < N; i++) {
			count++;
			sum16 = (uint16_t) (sum16 + data[i]);
			sum32 += sum16;
			delta = (int16_t) (delta + data[i] - last);
			last = data[i];
			if (delta > 200)
				delta = (int16_t) (delta - 200);
			data[i] = (uint8_t) (data[i] + count);
		}
	}

	sink = g_sum32 + g_sum16 + (uint16_t) g_delta + sum32 + sum16 + (uint16_t) delta;
	return 0;
}
