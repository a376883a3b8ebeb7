/* kernel-life: Conway's game of life on an 8x8 torus for two generations, written the way
 * portable C usually is: plain int indices, 2-D local grids, a global 2-D table of neighbour
 * offsets and a global 2-D rule table. 2-D subscripts with int arithmetic on a 16-bit int.  */
#include <stdint.h>

#define N 8
#define GENERATIONS 2

volatile uint16_t in_seed = 0x2b7d;
volatile uint32_t sink;

const int8_t offsets[8][2] = {
	{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}
};
uint8_t rule[2][9];

int main(void)
{
	uint8_t grid[N][N], next[N][N];
	uint16_t seed = in_seed;
	uint32_t acc = 0;
	int r, c, g, k;

	for (k = 0; k < 9; k++) {
		rule[0][k] = k == 3;
		rule[1][k] = k == 2 || k == 3;
	}
	for (r = 0; r < N; r++)
		for (c = 0; c < N; c++) {
			seed = (uint16_t) (seed * 25173u + 13849u);
			grid[r][c] = (seed >> 13) < 3;
		}
	for (g = 0; g < GENERATIONS; g++) {
		for (r = 0; r < N; r++)
			for (c = 0; c < N; c++) {
				int live = 0;

				for (k = 0; k < 8; k++) {
					int rr = (r + offsets[k][0] + N) % N;
					int cc = (c + offsets[k][1] + N) % N;

					live += grid[rr][cc];
				}
				next[r][c] = rule[grid[r][c]][live];
			}
		for (r = 0; r < N; r++)
			for (c = 0; c < N; c++) {
				grid[r][c] = next[r][c];
				acc = acc * 3 + grid[r][c];
			}
	}

	sink = acc;
	return 0;
}
