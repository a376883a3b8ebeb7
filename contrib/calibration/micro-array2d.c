/* micro-array2d: two-dimensional arrays: u8, u16 and u32 elements, rows of a power-of-two
 * size (8 u8, 4 u16, 4 u32) and of other sizes (5 u8, 5 u16, 3 u32), local and global,
 * loads, stores and read-modify-writes at run-time row and column subscripts, walked by
 * rows and by columns.  The address of m[i][j] is m + i * row size + j * element size, a
 * shift or a multiply per subscript (roi's "index" operations) and an add each.  */
#include <stdint.h>

#define ROUNDS 6

volatile uint8_t in_seed = 11;
volatile uint32_t sink;

static uint8_t g8a[6][8];
static uint8_t g8b[6][5];
static uint16_t g16a[5][4];
static uint16_t g16b[5][5];
static uint32_t g32a[4][4];
static uint32_t g32b[4][3];

int main(void)
{
	uint8_t l8[6][5];
	uint16_t l16[5][4];
	uint32_t l32[4][3];
	uint8_t seed = in_seed;
	uint8_t i, j;
	uint16_t r, acc16 = 0;
	uint32_t acc32 = 0;

	for (i = 0; i < 6; i++)
		for (j = 0; j < 8; j++) {
			seed = (uint8_t) (seed * 29 + 7);
			g8a[i][j] = seed;
			if (j < 5) {
				g8b[i][j] = (uint8_t) (seed ^ 0x5a);
				l8[i][j] = (uint8_t) (seed + i);
			}
		}
	for (i = 0; i < 5; i++)
		for (j = 0; j < 5; j++) {
			seed = (uint8_t) (seed * 29 + 7);
			g16b[i][j] = (uint16_t) (seed * 131u);
			if (j < 4) {
				g16a[i][j] = (uint16_t) (seed + 1000u * j);
				l16[i][j] = (uint16_t) (seed << 4);
			}
		}
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			seed = (uint8_t) (seed * 29 + 7);
			g32a[i][j] = (uint32_t) seed * 70001UL;
			if (j < 3) {
				g32b[i][j] = (uint32_t) seed << 12;
				l32[i][j] = (uint32_t) seed * 3UL + j;
			}
		}

	for (r = 0; r < ROUNDS; r++) {
		/* by rows: loads of every element */
		for (i = 0; i < 6; i++) {
			for (j = 0; j < 8; j++)
				acc16 = (uint16_t) (acc16 + g8a[i][j]);
			for (j = 0; j < 5; j++)
				acc16 = (uint16_t) (acc16 + g8b[i][j] + l8[i][j]);
		}
		for (i = 0; i < 5; i++) {
			for (j = 0; j < 4; j++)
				acc16 = (uint16_t) (acc16 ^ (g16a[i][j] + l16[i][j]));
			for (j = 0; j < 5; j++)
				acc16 = (uint16_t) (acc16 + g16b[i][j]);
		}
		for (i = 0; i < 4; i++) {
			for (j = 0; j < 4; j++)
				acc32 += g32a[i][j];
			for (j = 0; j < 3; j++)
				acc32 ^= g32b[i][j] + l32[i][j];
		}
		/* by columns: read-modify-writes */
		for (j = 0; j < 5; j++)
			for (i = 0; i < 6; i++) {
				g8b[i][j] = (uint8_t) (g8b[i][j] + 3);
				l8[i][j] = (uint8_t) (l8[i][j] ^ g8a[i][j]);
			}
		for (j = 0; j < 4; j++)
			for (i = 0; i < 5; i++) {
				l16[i][j] = (uint16_t) (l16[i][j] + g16b[i][j]);
				g16a[i][j] = (uint16_t) (g16a[i][j] - 7);
			}
		for (j = 0; j < 3; j++)
			for (i = 0; i < 4; i++) {
				l32[i][j] += g32a[i][j];
				g32b[i][j] = g32b[i][j] >> 1;
			}
		/* stores of a computed value, diagonal */
		for (i = 0; i < 4; i++) {
			g32a[i][i] = acc32 + i;
			g16b[i][i] = (uint16_t) (acc16 + i);
			g8a[i][i + 1] = (uint8_t) acc16;
		}
	}

	sink = acc32 + acc16 + l8[5][4] + l16[4][3] + l32[3][2];
	return 0;
}
