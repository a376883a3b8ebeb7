/* micro-mod: remainders (%) at every width, signed and unsigned, by variables, by
 * constants (10, 7, 60) and by powers of two (which GCC turns into masks when unsigned).
 * On AVR % shares the divmod libcalls with /, so the corpus needs both to tell them apart.
 * Divisors are never 0; signed remainders are summed into an unsigned accumulator.  */
#include <stdint.h>

#define N 8
#define ROUNDS 8

volatile uint8_t in_u8[N] = {3, 200, 17, 255, 1, 91, 128, 44};
volatile int8_t in_i8[N] = {-3, 100, -128, 5, 127, -60, 1, 33};
volatile uint16_t in_u16[N] = {1, 65535u, 4000, 32768u, 777, 12, 60000u, 300};
volatile int16_t in_i16[N] = {-1000, 32767, -32, 5, 1200, -7, 2, 400};
volatile uint32_t in_u32[N] = {1, 0xffffffffUL, 70000UL, 0x80000000UL,
			       123456789UL, 12, 4000000000UL, 65537UL};
volatile int32_t in_i32[N] = {-100000L, 2147483647L, -32768L, 5, 1200000L, -7, 3, 40000L};
volatile uint32_t sink;

int main(void)
{
	uint8_t u8[N];
	int8_t i8[N];
	uint16_t u16[N];
	int16_t i16[N];
	uint32_t u32[N];
	int32_t i32[N];
	uint16_t acc16 = 0;
	uint32_t acc32 = 0;
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

			/* 8-bit */
			acc16 = (uint16_t) (acc16 + (uint8_t) (u8[i] % (uint8_t) (u8[j] | 1)));
			acc16 = (uint16_t) (acc16 + (uint8_t) (u8[i] % 10));
			acc16 = (uint16_t) (acc16 + (uint8_t) (u8[i] % 16));
			acc16 = (uint16_t) (acc16 + (int8_t) (i8[i] % (int8_t) (i8[j] | 1)));
			acc16 = (uint16_t) (acc16 + (int8_t) (i8[i] % 7));
			/* 16-bit */
			acc16 = (uint16_t) (acc16 + u16[i] % (uint16_t) (u16[j] | 1));
			acc16 = (uint16_t) (acc16 + u16[i] % 60u);
			acc16 = (uint16_t) (acc16 + u16[i] % 256u);
			acc16 = (uint16_t) (acc16 + i16[i] % (int16_t) (i16[j] | 1));
			acc16 = (uint16_t) (acc16 + i16[i] % 10);
			/* 32-bit */
			acc32 += u32[i] % (u32[j] | 1);
			acc32 += u32[i] % 10UL;
			acc32 += u32[i] % 1024UL;
			acc32 += (uint32_t) (i32[i] % (i32[j] | 1));
			acc32 += (uint32_t) (i32[i] % 1000L);

			u8[i] = (uint8_t) (u8[i] + 29);
			u16[i] = (uint16_t) (u16[i] + acc16);
			u32[i] = u32[i] + acc32;
		}
	}

	sink = acc32 + acc16;
	return 0;
}
