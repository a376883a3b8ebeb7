/* micro-logic: bitwise and, or, xor and not at every width, with constant masks and
 * variable operands, on locals and array elements (flag sets, masks, toggles).
 * On AVR these are one instruction per byte, so they pin down the cheap end of the model.  */
#include <stdint.h>

#define N 8
#define ROUNDS 30

volatile uint8_t in_u8[N] = {3, 200, 17, 255, 0, 91, 128, 44};
volatile int8_t in_i8[N] = {-3, 100, -128, 5, 127, -60, 0, 33};
volatile uint16_t in_u16[N] = {1, 65535u, 4000, 32768u, 777, 12, 60000u, 300};
volatile int16_t in_i16[N] = {-1000, 32767, -32768, 5, 1200, -7, 0, 400};
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
	uint8_t flags = 0x5a;
	int8_t sflags = 0;
	uint16_t mask16 = 0x0ff0;
	int16_t smask = -1;
	uint32_t mask32 = 0x00ffff00UL;
	int32_t s32 = 0;
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
			flags = (uint8_t) ((flags & u8[i]) | (u8[j] & 0x0f));
			flags ^= 0x81;
			u8[i] = (uint8_t) ~(u8[i] ^ flags);
			sflags = (int8_t) (sflags ^ (i8[i] | 0x10));
			sflags = (int8_t) (sflags & ~i8[j]);
			/* 16-bit */
			mask16 = (uint16_t) ((mask16 | u16[i]) & ~u16[j]);
			mask16 ^= 0x5555;
			u16[i] = (uint16_t) (u16[i] ^ (mask16 & 0xff00));
			smask = (int16_t) ((smask & i16[i]) ^ ~i16[j]);
			smask = (int16_t) (smask | 0x0101);
			/* 32-bit */
			mask32 = (mask32 & ~u32[j]) | (u32[i] & 0x0f0f0f0fUL);
			mask32 ^= u32[i];
			u32[i] = ~u32[i] & (mask32 | 0x80000001UL);
			s32 = (s32 ^ i32[i]) & ~i32[j];
			s32 = s32 | (i32[i] & 0xff);
		}
		flags = (uint8_t) (flags | (uint8_t) r);
		mask32 ^= r;
	}

	sink = mask32 + mask16 + flags + (uint32_t) s32 + (uint16_t) smask + (uint8_t) sflags;
	return 0;
}
