/* crc32.h — CRC-32 (IEEE 802.3, as zlib and the roi runtime compute it). */
#ifndef ROI_CRC32_H
#define ROI_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* Start with crc = 0; feed pieces by passing the previous result. */
uint32_t roi_crc32(uint32_t crc, const void *data, size_t len);

#endif
