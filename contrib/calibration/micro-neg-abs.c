/* micro-neg-abs: negation and absolute value at i8, i16 and i32: unary minus, abs() and
 * labs() from stdlib.h, and the hand-written x < 0 ? -x : x, as in error magnitudes and
 * sign handling.  GCC turns these into NEGATE_EXPR/ABS_EXPR, multi-byte NEG sequences
 * on AVR.  Values never include the most negative one, whose negation overflows.  */
#include <stdint.h>
#include <stdlib.h>

#define N 16
#define ROUNDS 25

volatile int16_t in_i16[N] = {-1000, 32767, -32767, 5, 1200, -7, 0, 400,
			      -1, 1, 99, -99, 1000, -1000, 2, 3};
volatile uint32_t sink;

int main(void)
{
	int8_t i8[N];
	int16_t i16[N];
	int32_t i32[N];
	uint32_t acc = 0;
	int16_t err = 0;
	int32_t err32 = 0;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++) {
		i16[i] = in_i16[i];
		i8[i] = (int8_t) (in_i16[i] % 100);
		i32[i] = (int32_t) in_i16[i] * 50000L;
	}

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < N; i++) {
			uint8_t j = (uint8_t) ((i + r) & (N - 1));

			i8[i] = (int8_t) -i8[i];
			acc += (uint8_t) (i8[j] < 0 ? -i8[j] : i8[j]);
			acc += (uint16_t) abs(i16[i]);
			i16[j] = (int16_t) -i16[j];
			err = (int16_t) ((i16[i] >> 1) - (i16[j] >> 1));
			acc += (uint16_t) (err < 0 ? -err : err);
			i32[i] = -i32[i];
			acc += (uint32_t) labs(i32[j]);
			err32 = (i32[i] >> 2) - (i32[j] >> 2);
			acc += (uint32_t) (err32 >= 0 ? err32 : -err32);
		}
	}

	sink = acc;
	return 0;
}
