/* micro-load-store-array: loads and stores through array subscripts: u8/i16/u32 elements,
 * constant and variable indices, a 2-D array, reversed and strided walks, and a
 * read-modify-write.  On AVR each access is an address computation plus LD/ST per byte,
 * so element width and index kind both show in the cycles.  */
#include <stdint.h>

#define N 48
#define ROWS 6
#define COLS 8
#define ROUNDS 4

volatile uint8_t in_seed = 7;
volatile uint32_t sink;

static uint8_t bytes[N];
static int16_t words[N];
static uint32_t longs[N];

int main(void)
{
	uint8_t grid[ROWS][COLS];
	uint8_t seed = in_seed;
	uint16_t sum16 = 0;
	uint32_t sum32 = 0;
	uint8_t i, row, col;
	uint16_t r;

	for (i = 0; i < N; i++) {
		seed = (uint8_t) (seed * 13 + 5);
		bytes[i] = seed;
		words[i] = (int16_t) (seed - 128);
		longs[i] = (uint32_t) seed << 12;
	}

	for (r = 0; r < ROUNDS; r++) {
		/* forward walk: load, store, read-modify-write */
		for (i = 0; i < N; i++) {
			uint8_t ahead = (uint8_t) (i + 5);

			if (ahead >= N)
				ahead = (uint8_t) (ahead - N);
			sum16 = (uint16_t) (sum16 + bytes[i]);
			words[i] = (int16_t) (words[i] + bytes[i] - 128);
			longs[i] += (uint32_t) words[i];
			bytes[i] = (uint8_t) (bytes[ahead] + 1);
		}
		/* reversed walk with a variable index and constant-index elements */
		for (i = N; i-- > 0;) {
			sum32 += longs[i] ^ longs[0];
			words[N - 1 - i] = (int16_t) ((words[i] >> 1) + words[3]);
		}
		/* stride 4 */
		for (i = 0; i < N; i += 4) {
			longs[i] = longs[i + 1] + longs[i + 2];
			sum16 = (uint16_t) (sum16 ^ (uint16_t) words[i + 3]);
		}
		/* 2-D array, row-major fill then column-major read */
		for (row = 0; row < ROWS; row++)
			for (col = 0; col < COLS; col++)
				grid[row][col] = (uint8_t) (bytes[row * COLS + col] ^ r);
		for (col = 0; col < COLS; col++)
			for (row = 0; row < ROWS; row++)
				sum16 = (uint16_t) (sum16 + grid[row][col]);
	}

	sink = sum32 + sum16;
	return 0;
}
