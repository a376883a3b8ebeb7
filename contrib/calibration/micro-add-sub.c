/* micro-add-sub: additions and subtractions at every integer width (u8, i8, u16, i16,
 * u32, i32), with constant and variable operands, on locals and on array elements.
 * In the corpus so that `roi calibrate` sees add/sub of each width with little else
 * around it.  Signed sums add one element and subtract its mirror, so they stay small.  */
#include <stdint.h>

#define N 8
#define ROUNDS 24

volatile uint8_t in_u8[N] = {3, 200, 17, 255, 0, 91, 128, 44};
volatile int8_t in_i8[N] = {-3, 20, -30, 5, 25, -20, 0, 13};
volatile uint16_t in_u16[N] = {1, 65535u, 4000, 32768u, 777, 12, 60000u, 300};
volatile int16_t in_i16[N] = {-1000, 999, -32, 5, 1200, -7, 0, 400};
volatile uint32_t in_u32[N] = {1, 0xffffffffUL, 70000UL, 0x80000000UL,
			       123456789UL, 12, 4000000000UL, 65536UL};
volatile int32_t in_i32[N] = {-100000L, 99999L, -32768L, 5, 1200000L, -7, 0, 40000L};
volatile uint32_t sink;

int main(void)
{
	uint8_t u8[N];
	int8_t i8[N];
	uint16_t u16[N];
	int16_t i16[N];
	uint32_t u32[N];
	int32_t i32[N];
	uint8_t acc_u8 = 0;
	int8_t acc_i8 = 0;
	uint16_t acc_u16 = 0;
	int16_t acc_i16 = 0;
	uint32_t acc_u32 = 0;
	int32_t acc_i32 = 0;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++) {
		u8[i] = in_u8[i];
		i8[i] = in_i8[i];
		u16[i] = in_u16[i];
		i16[i] = in_i16[i];
		u32[i] = in_u32[i];
		i32[i] = in_i32[i];
	}

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < N; i++) {
			uint8_t j = (uint8_t) (N - 1 - i);

			/* unsigned: wrap freely */
			acc_u8 = (uint8_t) (acc_u8 + u8[i]);
			acc_u8 = (uint8_t) (acc_u8 - 7);
			u8[i] = (uint8_t) (u8[i] + 3);
			acc_u16 = (uint16_t) (acc_u16 + u16[i]);
			acc_u16 = (uint16_t) (acc_u16 - 1234);
			u16[i] = (uint16_t) (u16[i] + acc_u8);
			acc_u32 += u32[i];
			acc_u32 -= 100000UL;
			u32[i] = u32[i] + acc_u16;

			/* signed: element in, mirror element out */
			acc_i8 = (int8_t) (acc_i8 + i8[i]);
			acc_i8 = (int8_t) (acc_i8 - i8[j]);
			acc_i16 = (int16_t) (acc_i16 + i16[i]);
			acc_i16 = (int16_t) (acc_i16 - i16[j]);
			acc_i16 = (int16_t) (acc_i16 + 25);
			acc_i32 = acc_i32 + i32[i] - i32[j];
			acc_i32 += 1000;
		}
		/* locals only: a difference of two running values */
		acc_u16 = (uint16_t) (acc_u16 - (uint16_t) (r + r));
		acc_u32 = acc_u32 + r - acc_u8;
		acc_i16 = (int16_t) (acc_i16 - (int16_t) r);
	}

	sink = acc_u32 + acc_u16 + acc_u8 + (uint32_t) acc_i32 + (uint16_t) acc_i16 + (uint8_t) acc_i8;
	return 0;
}
