/* micro-mul8-16: 8- and 16-bit multiplications (u8, i8, u16, i16), truncating and
 * widening 8x8->16, by variables and constants, on locals and array elements: inline MUL
 * sequences on AVR, to be told apart from the 32-bit libcall multiply.  Operands stay
 * small enough that no signed product overflows a 16-bit (AVR) or 32-bit (host) int.  */
#include <stdint.h>

#define N 8
#define ROUNDS 22

volatile uint8_t in_u8[N] = {3, 120, 17, 255, 0, 91, 128, 44};
volatile int8_t in_i8[N] = {-3, 100, -128, 5, 127, -60, 0, 33};
volatile uint16_t in_u16[N] = {1, 65535u, 4000, 32768u, 777, 12, 60000u, 300};
volatile int16_t in_i16[N] = {-100, 99, -32, 5, 120, -7, 0, 41};
volatile uint32_t sink;

int main(void)
{
	uint8_t u8[N];
	int8_t i8[N];
	uint16_t u16[N];
	int16_t i16[N];
	uint8_t acc_u8 = 1;
	uint16_t acc_u16 = 1, wide = 0;
	int16_t acc_i16 = 0;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++) {
		u8[i] = in_u8[i];
		i8[i] = in_i8[i];
		u16[i] = in_u16[i];
		i16[i] = in_i16[i];
	}

	for (r = 0; r < ROUNDS; r++) {
		uint8_t k = (uint8_t) (r & 0x7f);	/* < 128: k * u8 fits a 16-bit int */

		for (i = 0; i < N; i++) {
			uint8_t j = (uint8_t) (N - 1 - i);

			/* 8 x 8 -> 8 */
			acc_u8 = (uint8_t) (acc_u8 * 5 + 1);
			u8[i] = (uint8_t) (u8[i] * k + i);
			acc_u8 = (uint8_t) (acc_u8 + (uint8_t) (u8[i] * (uint8_t) (i | 1)));
			/* 8 x 8 -> 16, unsigned and signed */
			wide = (uint16_t) (wide + (uint16_t) u8[i] * u8[j]);
			acc_i16 = (int16_t) (acc_i16 + i8[i] * i8[j]);
			acc_i16 = (int16_t) (acc_i16 - i8[i] * i8[j]);
			acc_i16 = (int16_t) (acc_i16 + i8[i] * 3);
			/* 16 x 16 -> 16: one operand below 2^15 so the host's int never overflows */
			acc_u16 = (uint16_t) (acc_u16 * 75u + u16[i]);
			u16[i] = (uint16_t) (u16[i] * (uint16_t) (r + 3));
			acc_u16 = (uint16_t) (acc_u16 + u16[i] * (uint16_t) (acc_u8 | 1));
			/* signed 16 x 16 -> 16: small operands */
			acc_i16 = (int16_t) (acc_i16 + ((i16[i] * i16[j]) >> 6));
			acc_i16 = (int16_t) (acc_i16 + i16[j] * -10);
		}
		acc_i16 = (int16_t) (acc_i16 >> 1);
	}

	sink = (uint32_t) acc_u8 + acc_u16 + wide + (uint16_t) acc_i16;
	return 0;
}
