/* micro-conv: integer conversions between the widths: zero-extension (u8->u16/u32,
 * u16->u32), sign-extension (i8->i16/i32, i16->i32), truncation (u32->u16/u8, i32->i16/i8)
 * and signedness changes at one width.  C's integer promotions make these the most
 * frequent operations of all, so their cost must be fitted, not guessed.  */
#include <stdint.h>

#define N 16
#define ROUNDS 13

volatile uint8_t in_u8[N] = {3, 200, 17, 255, 0, 91, 128, 44, 9, 100, 101, 7, 250, 60, 61, 127};
volatile uint32_t in_u32[N] = {1, 0xffffffffUL, 70000UL, 0x80000000UL, 123456789UL, 12,
			       4000000000UL, 65537UL, 65536UL, 65535UL, 0, 7, 70001UL,
			       0x7fff8000UL, 1000000UL, 0x12345678UL};
volatile uint32_t sink;

int main(void)
{
	uint8_t u8[N];
	int8_t i8[N];
	uint32_t u32[N];
	uint32_t acc32 = 0;
	int32_t sacc32 = 0;
	uint16_t acc16 = 0;
	int16_t sacc16 = 0;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++) {
		u8[i] = in_u8[i];
		i8[i] = (int8_t) in_u8[i];
		u32[i] = in_u32[i];
	}

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < N; i++) {
			uint32_t w = u32[i];
			uint16_t u16 = (uint16_t) w;		/* truncate 32 -> 16 */
			uint8_t b = (uint8_t) (w >> 8);		/* truncate 32 -> 8 */
			int16_t s16 = (int16_t) u16;		/* same width, to signed */
			int32_t s32 = (int32_t) (w >> 4);
			int8_t s8 = (int8_t) s32;		/* truncate signed 32 -> 8 */

			acc32 += u8[i];				/* zero-extend 8 -> 32 */
			acc32 += u16;				/* zero-extend 16 -> 32 */
			sacc32 = (sacc32 >> 1) + i8[i];		/* sign-extend 8 -> 32 */
			sacc32 += s16;				/* sign-extend 16 -> 32 */
			acc16 = (uint16_t) (acc16 + b);		/* zero-extend 8 -> 16 */
			acc16 = (uint16_t) (acc16 + (uint16_t) s8);	/* sign-extend 8 -> 16 */
			sacc16 = (int16_t) ((sacc16 >> 1) + i8[i]);	/* sign-extend 8 -> 16 */
			sacc16 = (int16_t) ((sacc16 >> 1) + (int16_t) (int8_t) b);
			u8[i] = (uint8_t) (u8[i] + (uint8_t) s16);	/* truncate 16 -> 8 */
			i8[i] = (int8_t) (uint8_t) (i8[i] + 1);
			u32[i] = w + (uint32_t) (int32_t) s16 + 0x01010101UL;
		}
	}

	sink = acc32 + (uint32_t) sacc32 + acc16 + (uint16_t) sacc16;
	return 0;
}
