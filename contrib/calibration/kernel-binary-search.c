/* kernel-binary-search: binary search in a sorted table of 128 u16 keys (a lookup
 * table such as a calibration curve), for 300 keys of which about half are present.
 * Index arithmetic (mid = lo + (hi - lo) / 2), a three-way compare and a loop whose
 * trip count depends on the data.  */
#include <stdint.h>

#define N 128
#define QUERIES 300

volatile uint16_t in_step = 37;
volatile uint32_t sink;

static int16_t find(const uint16_t *table, uint8_t n, uint16_t key)
{
	uint8_t lo = 0, hi = n;		/* search [lo, hi) */

	while (lo < hi) {
		uint8_t mid = (uint8_t) (lo + (hi - lo) / 2);

		if (table[mid] == key)
			return mid;
		if (table[mid] < key)
			lo = (uint8_t) (mid + 1);
		else
			hi = mid;
	}
	return -1;
}

int main(void)
{
	uint16_t table[N];
	uint16_t step = in_step;
	uint16_t found = 0;
	uint32_t acc = 0;
	uint8_t i;
	uint16_t q;

	for (i = 0; i < N; i++)
		table[i] = (uint16_t) (i * step + (i & 1));	/* sorted, gaps between keys */

	for (q = 0; q < QUERIES; q++) {
		uint16_t key = table[(q * 7u) & (N - 1)];
		int16_t at;

		if (q & 1)
			key++;			/* falls between two keys: absent */
		if ((q & 15) == 14)
			key = 0xffff;		/* beyond the last key */
		at = find(table, N, key);
		if (at >= 0)
			found++;
		acc += (uint16_t) at;
	}

	sink = acc + ((uint32_t) found << 16);
	return 0;
}
