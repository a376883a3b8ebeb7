/* kernel-pcm-convert: audio sample formats converted as a codec driver does: unsigned 8-bit
 * PCM to signed 16-bit, two channels mixed in 32 bits and halved, 24-bit samples in u32
 * words reduced to 16 and 8 bits with clipping, and a level meter.  Conversions between
 * every width and signedness, constant shifts of u32 and i32, compares for clipping.  */
#include <stdint.h>

#define FRAMES 128

volatile uint8_t in_phase = 17;
volatile uint32_t sink;

int main(void)
{
	uint8_t u8pcm[FRAMES];
	uint32_t s24[FRAMES];
	int16_t out16[FRAMES];
	int8_t out8[FRAMES];
	uint8_t ph = in_phase;
	uint32_t energy = 0;
	uint16_t clipped = 0, peak = 0;
	uint8_t i;

	for (i = 0; i < FRAMES; i++) {
		ph = (uint8_t) (ph + 37u);
		u8pcm[i] = (uint8_t) (ph ^ (i << 1));
		s24[i] = ((uint32_t) ph << 16 | (uint32_t) i << 8 | (uint8_t) ~ph) & 0xffffffUL;
	}

	for (i = 0; i < FRAMES; i++) {
		int16_t left = (int16_t) (((int16_t) u8pcm[i] - 128) * 256);	/* u8 to s16 */
		int32_t right = (int32_t) (s24[i] << 8) >> 8;			/* s24 to s32 */
		int32_t mix = ((int32_t) left * 256 + right) >> 1;
		int32_t s16 = mix >> 8;
		int8_t small;
		uint16_t mag;

		if (s16 > 32767) {
			s16 = 32767;
			clipped++;
		} else if (s16 < -32768) {
			s16 = -32768;
			clipped++;
		}
		out16[i] = (int16_t) s16;
		small = (int8_t) (s24[i] >> 16);				/* top byte */
		out8[i] = (int8_t) (small / 2 + (int8_t) (out16[i] >> 9));
		mag = (uint16_t) (out16[i] < 0 ? -(int32_t) out16[i] : out16[i]);
		if (mag > peak)
			peak = mag;
		energy += (uint32_t) ((int32_t) out8[i] * out8[i]);
		energy += (uint16_t) (s24[i] >> 4) >> 8;
	}

	sink = energy + ((uint32_t) peak << 8) + clipped + (uint16_t) out16[FRAMES / 3]
	       + (uint8_t) out8[FRAMES / 5];
	return 0;
}
