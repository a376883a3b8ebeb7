/* micro-shift-var: shifts by run-time amounts (0 up to width-1) at every width, left,
 * logical right and arithmetic right.  AVR has no barrel shifter, so the cost grows with
 * the amount (a loop of 1-bit shifts); the amounts cycle through their whole range so the
 * fitted cost is an average over them.  Only unsigned values are shifted left.  */
#include <stdint.h>

#define N 8
#define ROUNDS 20

volatile uint8_t in_u8[N] = {3, 200, 17, 255, 0, 91, 128, 44};
volatile int8_t in_i8[N] = {-3, 100, -128, 5, 127, -60, 0, 33};
volatile uint16_t in_u16[N] = {1, 65535u, 4000, 32768u, 777, 12, 60000u, 300};
volatile int16_t in_i16[N] = {-1000, 32767, -32768, 5, 1200, -7, 0, 400};
volatile uint32_t in_u32[N] = {1, 0xffffffffUL, 70000UL, 0x80000000UL,
			       123456789UL, 12, 4000000000UL, 65537UL};
volatile int32_t in_i32[N] = {-100000L, 2147483647L, -32768L, 5, 1200000L, -7, 3, 40000L};
volatile uint8_t in_step = 5;
volatile uint32_t sink;

int main(void)
{
	uint8_t u8[N];
	int8_t i8[N];
	uint16_t u16[N];
	int16_t i16[N];
	uint32_t u32[N];
	int32_t i32[N];
	uint8_t amount[N];
	uint8_t acc8 = 0;
	uint16_t acc16 = 0;
	uint32_t acc32 = 0;
	uint8_t step = in_step;
	uint8_t n = 0;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++) {
		u8[i] = in_u8[i];
		i8[i] = in_i8[i];
		u16[i] = in_u16[i];
		i16[i] = in_i16[i];
		u32[i] = in_u32[i];
		i32[i] = in_i32[i];
		amount[i] = (uint8_t) (i * 3);
	}

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < N; i++) {
			uint8_t s8 = n & 7, s16 = n & 15, s32 = n & 31;
			uint8_t a = (uint8_t) (amount[i] & 15);

			n = (uint8_t) (n + step);
			/* 8-bit */
			acc8 = (uint8_t) (acc8 + (uint8_t) (u8[i] << s8) + (u8[i] >> s8));
			acc8 = (uint8_t) (acc8 + (int8_t) (i8[i] >> s8));
			/* 16-bit */
			acc16 = (uint16_t) (acc16 + (uint16_t) (u16[i] << s16) + (u16[i] >> s16));
			acc16 = (uint16_t) (acc16 + (int16_t) (i16[i] >> a));
			acc16 = (uint16_t) (acc16 ^ (uint16_t) (1u << a));
			/* 32-bit */
			acc32 += (u32[i] << s32) + (u32[i] >> s32);
			acc32 += (uint32_t) (i32[i] >> s32);
			acc32 ^= (uint32_t) 1 << s32;
			amount[i] = (uint8_t) (amount[i] + 1);
		}
	}

	sink = acc32 + acc16 + acc8;
	return 0;
}
