/* kernel-bcd-rtc: a real-time clock chip's BCD registers (seconds to year) read, decoded to
 * binary, advanced, range-checked and encoded back, with a day-of-year table built in a
 * local u16 array, as an RTC driver does once a second.  u8 shifts by constants, masks,
 * small divisions by 10, and u16 array stores.  */
#include <stdint.h>

#define TICKS 200

volatile uint8_t in_regs[6] = {0x55, 0x59, 0x23, 0x28, 0x02, 0x24};	/* s m h D M Y */
volatile uint32_t sink;

static uint8_t from_bcd(uint8_t b)
{
	return (uint8_t) ((b >> 4) * 10u + (b & 0x0fu));
}

static uint8_t to_bcd(uint8_t v)
{
	return (uint8_t) ((v / 10u) << 4 | v % 10u);
}

int main(void)
{
	static const uint8_t mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	uint16_t yday[13];
	uint8_t regs[6];
	uint32_t acc = 0;
	uint16_t bad = 0, t;
	uint8_t i;

	yday[0] = 0;
	for (i = 0; i < 12; i++)
		yday[i + 1] = (uint16_t) (yday[i] + mdays[i]);
	for (i = 0; i < 6; i++)
		regs[i] = in_regs[i];

	for (t = 0; t < TICKS; t++) {
		uint8_t s = from_bcd(regs[0]), m = from_bcd(regs[1]), h = from_bcd(regs[2]);
		uint8_t d = from_bcd(regs[3]), mo = from_bcd(regs[4]), y = from_bcd(regs[5]);
		uint8_t len = mdays[(uint8_t) (mo - 1u) % 12u];

		if ((regs[0] >> 4) > 5 || (regs[1] >> 4) > 5 || (regs[2] >> 4) > 2)
			bad++;
		if (mo == 2 && (y & 3u) == 0)
			len++;
		s = (uint8_t) (s + 1u + (t & 3u) * 15u);	/* skips, as after a sleep */
		if (s >= 60) { s = (uint8_t) (s - 60u); m++; }
		if (m >= 60) { m = 0; h++; }
		if (h >= 24) { h = 0; d++; }
		if (d > len) { d = 1; mo++; }
		if (mo > 12) { mo = 1; y++; }
		regs[0] = to_bcd(s);
		regs[1] = to_bcd(m);
		regs[2] = to_bcd(h);
		regs[3] = to_bcd(d);
		regs[4] = to_bcd(mo);
		regs[5] = to_bcd(y);
		acc += (uint16_t) (yday[(uint8_t) (mo - 1u) % 12u] + d);
		acc += (uint8_t) (regs[0] >> 1) + (uint8_t) (regs[2] >> 2);
		yday[12] = (uint16_t) (yday[12] + (regs[1] >> 4));
	}

	sink = acc + ((uint32_t) bad << 24) + yday[12] + regs[5];
	return 0;
}
