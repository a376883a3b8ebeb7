/* micro-minmax: minimum, maximum and clamping written the usual C ways (ternaries, if
 * statements, a MIN/MAX macro) over u8, i16, u16, i32 and u32, as in limiting a PWM duty
 * or tracking a signal's range.  GCC turns some into MIN_EXPR/MAX_EXPR and leaves others
 * as branches, so both forms are in the corpus.  */
#include <stdint.h>

#define N 16
#define ROUNDS 25
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

volatile uint8_t in_u8[N] = {3, 200, 17, 255, 0, 91, 128, 44, 9, 100, 101, 7, 250, 60, 61, 127};
volatile int16_t in_i16[N] = {-1000, 32767, -32768, 5, 1200, -7, 0, 400,
			      -1, 1, 99, -99, 1000, -1000, 2, 3};
volatile uint32_t sink;

int main(void)
{
	uint8_t u8[N];
	int16_t i16[N];
	uint16_t u16[N];
	int32_t i32[N];
	uint32_t u32[N];
	uint8_t lo8 = 255, hi8 = 0;
	int16_t lo16 = 32767, hi16 = -32768;
	uint16_t umax16 = 0;
	int32_t lo32 = 0;
	uint32_t hi32 = 0;
	uint32_t acc = 0;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++) {
		u8[i] = in_u8[i];
		i16[i] = in_i16[i];
		u16[i] = (uint16_t) in_i16[i];
		i32[i] = (int32_t) in_i16[i] * 100;
		u32[i] = (uint32_t) in_u8[i] << 14;
	}

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < N; i++) {
			uint8_t j = (uint8_t) ((i + r) & (N - 1));
			int16_t clamped;

			lo8 = MIN(lo8, u8[i]);
			hi8 = MAX(hi8, u8[j]);
			lo16 = MIN(lo16, i16[i]);
			if (i16[j] > hi16)
				hi16 = i16[j];
			umax16 = MAX(umax16, u16[i]);
			lo32 = MIN(i32[i], i32[j]);
			hi32 = u32[i] > u32[j] ? u32[i] : u32[j];
			clamped = i16[i] < -500 ? -500 : i16[i] > 500 ? 500 : i16[i];
			acc += (uint32_t) (clamped + 500);
			acc += hi32 >> 8;
			acc += (uint32_t) lo32;
			u8[i] = (uint8_t) MIN((uint16_t) (u8[i] + 13), 250u);
			i16[i] = (int16_t) MAX((i16[i] >> 1) - 1, -20000);
		}
		lo8 = (uint8_t) (lo8 + 40);
		hi8 = (uint8_t) (hi8 >> 1);
	}

	sink = acc + lo8 + hi8 + (uint16_t) lo16 + (uint16_t) hi16 + umax16;
	return 0;
}
