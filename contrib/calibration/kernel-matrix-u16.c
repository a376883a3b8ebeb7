/* kernel-matrix-u16: products of 8x8 u16 matrices, with a wrapping u16 accumulator and
 * with a u32 accumulator of widened products, a transpose and a trace: the seed's matrix
 * example grown to calibration size (triple loops, 2-D indexing, 16-bit multiplies).
 * Every u16 product's second factor is below 2^15, so the host's 32-bit int never overflows.  */
#include <stdint.h>

#define DIM 8

volatile uint16_t in_seed = 99;
volatile uint32_t sink;

typedef uint16_t matrix[DIM][DIM];

static void multiply16(matrix c, matrix a, matrix b)
{
	uint8_t i, j, k;

	for (i = 0; i < DIM; i++)
		for (j = 0; j < DIM; j++) {
			uint16_t sum = 0;

			for (k = 0; k < DIM; k++)
				sum = (uint16_t) (sum + a[i][k] * b[k][j]);
			c[i][j] = sum;
		}
}

static uint32_t multiply32_trace(matrix a, matrix b)
{
	uint32_t trace = 0;
	uint8_t i, j, k;

	for (i = 0; i < DIM; i++)
		for (j = 0; j < DIM; j++) {
			uint32_t sum = 0;

			for (k = 0; k < DIM; k++)
				sum += (uint32_t) a[i][k] * b[k][j];
			if (i == j)
				trace += sum;
			else
				trace ^= sum;
		}
	return trace;
}

int main(void)
{
	matrix a, b, c;
	uint16_t x = in_seed;
	uint32_t acc;
	uint8_t i, j;

	for (i = 0; i < DIM; i++)
		for (j = 0; j < DIM; j++) {
			x = (uint16_t) (x * 25173u + 13849u);
			a[i][j] = x;
			b[j][i] = (uint16_t) (x >> 4);
		}

	multiply16(c, a, b);
	for (i = 0; i < DIM; i++)		/* transpose c in place */
		for (j = (uint8_t) (i + 1); j < DIM; j++) {
			uint16_t t = c[i][j];

			c[i][j] = c[j][i];
			c[j][i] = t;
		}
	acc = multiply32_trace(c, a);

	sink = acc;
	return 0;
}
