/* kernel-percent16: small-MCU sensor arithmetic on 8- and 16-bit values: signed readings
 * scaled to percent of a run-time range, block averages, battery level in u8 steps, signed
 * offsets halved and quartered, and ring indices wrapped with a signed %.  i16, i8 and u8
 * division by variables and constants, signed int % and / by powers of two.  */
#include <stdint.h>

#define N 48
#define BLOCK 6
#define ROUNDS 6

volatile uint16_t in_seed = 0xace1;
volatile int16_t in_lo = -250, in_hi = 310;	/* calibrated range of the sensor */
volatile uint8_t in_cells = 3;
volatile uint32_t sink;

/* where r lies between lo and hi, in percent, clamped to 0..100 */
static int16_t percent_of(int16_t r, int16_t lo, int16_t hi)
{
	int16_t span = (int16_t) (hi - lo);
	int16_t pos = (int16_t) (r - lo);

	if (pos <= 0)
		return 0;
	if (pos >= span)
		return 100;
	return (int16_t) ((int16_t) (pos * 50) / (int16_t) (span >> 1));
}

/* battery voltage in 20 mV steps per cell (u8) to a 0..10 bar level */
static uint8_t bars(uint8_t volts, uint8_t cells)
{
	uint8_t per_cell = (uint8_t) (volts / cells);

	if (per_cell < 165)
		return 0;
	return (uint8_t) ((uint8_t) (per_cell - 165) / 5);
}

int main(void)
{
	int16_t readings[N];
	uint16_t seed = in_seed;
	int16_t lo = in_lo, hi = in_hi;
	uint8_t cells = in_cells;
	uint32_t acc = 0;
	int head = 0;
	int i, r;

	for (i = 0; i < N; i++) {
		seed ^= (uint16_t) (seed << 7);
		seed ^= (uint16_t) (seed >> 9);
		seed ^= (uint16_t) (seed << 8);
		readings[i] = (int16_t) ((int16_t) (seed & 0x3ff) - 400);	/* -400..623 */
	}

	for (r = 0; r < ROUNDS; r++) {
		int step = r - 3;	/* walks the ring backwards and forwards */

		for (i = 0; i < N; i++) {
			int16_t v = readings[head];
			int16_t pct = percent_of(v, lo, hi);
			int8_t off = (int8_t) (v >> 3);			/* -50..77 */
			uint8_t volts = (uint8_t) (200 + (v & 0x37));
			int16_t centred = (int16_t) (v - (lo + hi) / 2);

			acc += (uint16_t) pct;
			acc += (uint8_t) (off / 3);
			acc += (uint16_t) (centred / 4);
			acc += (uint16_t) (centred % 8);
			acc += (uint16_t) (v / 10);
			acc += bars(volts, cells);
			acc += (uint16_t) (v % (int16_t) (r * 7 - 20));	/* -20..15, never 0 */
			head = (head + step) % N;
			if (head < 0)
				head += N;
		}

		/* block averages of the signed readings, and their trend */
		for (i = 0; i + BLOCK <= N; i += BLOCK) {
			int16_t sum = 0, avg;
			int k;

			for (k = 0; k < BLOCK; k++)
				sum = (int16_t) (sum + readings[i + k]);
			avg = (int16_t) (sum / (int16_t) (BLOCK - (r & 1)));
			acc += (uint16_t) avg;
			readings[i] = (int16_t) ((readings[i] + avg) / 2);
		}
		lo = (int16_t) (lo + 10);
		hi = (int16_t) (hi - 12);
	}

	sink = acc;
	return 0;
}
