/* A routine compiled without the plugin (no metadata) and in no model's table of routines: a loop
 * whose cost depends on its argument. roi must say it could not price it, never count it as 0
 * (t0490 --price machine, t0491 per operation). */
#include <stdint.h>
uint16_t mystery(uint8_t n)
{
	uint16_t s = 0;
	while (n--)
		s += (uint16_t)(n * n);
	return s;
}
