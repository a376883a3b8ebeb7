/* micro-div16: 8- and 16-bit division (u8, i8, u16, i16) by variables and constants, both
 * signs: libgcc calls on AVR (__udivmodqi4, __divmodqi4, __udivmodhi4, __divmodhi4), but at
 * -O0 avr-gcc divides by a constant with a reciprocal multiply (__umulhisi3).  Divisors are
 * never 0 or -1; signed quotients go into an unsigned sum, so no 16-bit int overflows.  */
#include <stdint.h>

#define N 8
#define ROUNDS 12

volatile uint8_t in_u8[N] = {3, 200, 17, 255, 1, 91, 128, 44};
volatile int8_t in_i8[N] = {-3, 100, -128, 5, 127, -60, 1, 33};
volatile uint16_t in_u16[N] = {1, 65535u, 4000, 32768u, 777, 12, 60000u, 300};
volatile int16_t in_i16[N] = {-1000, 32767, -32, 5, 1200, -7, 2, 400};
volatile uint32_t sink;

int main(void)
{
	uint8_t u8[N];
	int8_t i8[N];
	uint16_t u16[N];
	int16_t i16[N];
	uint16_t acc_u = 0;
	int16_t acc_s = 0;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++) {
		u8[i] = in_u8[i];
		i8[i] = in_i8[i];
		u16[i] = in_u16[i];
		i16[i] = in_i16[i];
	}

	for (r = 0; r < ROUNDS; r++) {
		uint16_t big = (uint16_t) (r * 5003u + 17);

		for (i = 0; i < N; i++) {
			uint8_t j = (uint8_t) (N - 1 - i);
			uint8_t d8 = (uint8_t) (u8[j] | 1);
			int8_t s8 = (int8_t) (i8[j] | 1);	/* odd: never 0 */
			uint16_t d16 = (uint16_t) (u16[j] | 1);
			int16_t s16 = (int16_t) (i16[j] | 1);

			/* 8-bit: variable and constant divisors */
			acc_u = (uint16_t) (acc_u + (uint8_t) (u8[i] / d8));
			acc_u = (uint16_t) (acc_u + (uint8_t) (u8[i] / 10));
			acc_u = (uint16_t) (acc_u + (int8_t) (i8[i] / s8));
			acc_u = (uint16_t) (acc_u + (int8_t) (i8[i] / 7));
			/* 16-bit */
			acc_u = (uint16_t) (acc_u + u16[i] / d16);
			acc_u = (uint16_t) (acc_u + big / (uint16_t) (i + 1));
			acc_u = (uint16_t) (acc_u + u16[i] / 100u);
			acc_u = (uint16_t) (acc_u + i16[i] / s16);
			acc_u = (uint16_t) (acc_u + i16[i] / -9);
			acc_u = (uint16_t) (acc_u - i16[i] / 8);

			u16[i] = (uint16_t) (u16[i] + big);
			u8[i] = (uint8_t) (u8[i] + 37);
		}
		acc_s = (int16_t) (acc_s / 3 + (int16_t) (acc_u & 0x3ff) / -5);
	}

	sink = (uint32_t) acc_u + (uint16_t) acc_s;
	return 0;
}
