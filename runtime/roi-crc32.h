/* roi-crc32.h — the one CRC-32 of roi: IEEE 802.3, the value zlib's crc32() and the gzip trailer
 * give, so that a profile's end line and a function's checksum can be checked with standard tools.
 *
 * Header-only, like the rest of what the runtime, the estimator and the plugin share: the profile's
 * end line (roi-profile-io.c, in libroi.a and in roi), a function's checksum
 * (gcc-plugin/roi-checksum.c, in roi.so and in roi) and the sections roi calibrate compares.
 * Valid C11 and C++11. */
#ifndef ROI_CRC32_H
#define ROI_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The CRC of buf[0, len) continued from crc (start with 0). A 4-bit table: small enough to write
 * down, fast enough for files of a few megabytes. */
static inline uint32_t __roi_crc32(uint32_t crc, const void *buf, size_t len)
{
	static const uint32_t nibble_table[16] = {
		0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
		0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c, 0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
	};
	const unsigned char *p = (const unsigned char *)buf;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ nibble_table[crc & 15];
		crc = (crc >> 4) ^ nibble_table[crc & 15];
	}
	return ~crc;
}

#endif /* ROI_CRC32_H */
