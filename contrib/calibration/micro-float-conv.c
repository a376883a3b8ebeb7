/* micro-float-conv: conversions between integers and float in both directions: u8, i16,
 * u16, i32 and u32 to float (__floatsisf, __floatunsisf on AVR) and float to i16, u16,
 * i32, u32 (__fixsfsi, __fixunssfsi), as in scaling a sensor reading to physical units
 * and back.  Every float converted to an integer is in range for that type.  */
#include <stdint.h>

#define N 8
#define ROUNDS 20

volatile uint16_t in_raw[N] = {0, 1023, 512, 77, 900, 3, 650, 1000};
volatile int32_t in_big[N] = {-100000L, 2000000L, -32768L, 5, 1200000L, -7, 3, 40000L};
volatile uint32_t sink;

int main(void)
{
	uint16_t raw[N];
	int32_t big[N];
	uint32_t acc = 0;
	float total = 0.0f;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++) {
		raw[i] = in_raw[i];
		big[i] = in_big[i];
	}

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < N; i++) {
			float volts = (float) raw[i] * 0.0048828125f;	/* u16 -> float */
			float celsius = (float) (int16_t) (raw[i] - 500) / 10.0f;	/* i16 -> float */
			float wide = (float) big[i];			/* i32 -> float */
			float uwide = (float) (uint32_t) (big[i] + 200000L);	/* u32 -> float */
			float tiny = (float) i;				/* u8 -> float */

			acc += (uint16_t) (volts * 1000.0f);		/* float -> u16 */
			acc += (uint32_t) (int16_t) celsius;		/* float -> i16 */
			acc += (uint32_t) (int32_t) (wide * 0.5f);	/* float -> i32 */
			acc += (uint32_t) uwide;			/* float -> u32 */
			acc += (uint8_t) (tiny + 0.5f);			/* float -> u8 */
			total = total + tiny;
			raw[i] = (uint16_t) ((raw[i] + 37u) & 1023u);
		}
		big[r & (N - 1)] = (int32_t) (total * 3.0f) - 10000L;
	}

	sink = acc;
	return 0;
}
