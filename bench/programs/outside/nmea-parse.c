/* Outside the calibration corpus: an NMEA-like parser (strchr, strtol, atoi, qsort, sqrtf). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <math.h>
static const char *const lines[] = {
	"$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47",
	"$GPRMC,081836,A,3751.65,S,14507.36,E,000.0,360.0,130998,011.3,E*62",
	"$GPGSV,2,1,08,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45*75",
};
volatile long sink;
volatile float fsink;
static int cmp(const void *a, const void *b) { return *(const int16_t *)a - *(const int16_t *)b; }
static uint8_t checksum(const char *s)
{
	uint8_t c = 0;
	for (s++; *s && *s != '*'; s++)
		c ^= (uint8_t)*s;
	return c;
}
int main(void)
{
	int16_t v[24];
	long total = 0;
	uint8_t nv = 0;
	for (uint8_t r = 0; r < 6; r++)
		for (uint8_t i = 0; i < 3; i++) {
			const char *p = lines[i];
			char *end;
			total += checksum(p);
			while ((p = strchr(p, ',')) != NULL) {
				p++;
				if (isdigit((unsigned char)*p)) {
					long x = strtol(p, &end, 10);
					total += x;
					if (nv < 24)
						v[nv++] = (int16_t)x;
				}
			}
			total += (long)strlen(lines[i]) + atoi(lines[i] + 7);
		}
	qsort(v, nv, sizeof v[0], cmp);
	float f = 0;
	for (uint8_t i = 0; i < nv; i++)
		f += sqrtf((float)v[i]) * 0.5f;
	fsink = f;
	sink = total + memcmp(lines[0], lines[1], 6);
	return 0;
}
