/* micro-struct: structure field access: u8/i16/u32 fields of a local struct, an array of
 * structs indexed by a variable, -> through a pointer, a nested struct, and whole-struct
 * copies (which GCC turns into block moves or memcpy).  Field offsets fold into the
 * address on AVR (LDD/STD with displacement), unlike array indexing.  */
#include <stdint.h>
#include <stdbool.h>

#define N 12
#define ROUNDS 25

struct point {
	int16_t x, y;
};

struct sensor {
	uint8_t id;
	bool active;
	int16_t offset;
	uint32_t total;
	struct point pos;
};

volatile uint8_t in_seed = 3;
volatile uint32_t sink;

int main(void)
{
	struct sensor table[N];
	struct sensor best, *s;
	uint8_t seed = in_seed;
	uint32_t acc = 0;
	uint8_t i;
	uint16_t r;

	for (i = 0; i < N; i++) {
		seed = (uint8_t) (seed * 37 + 11);
		table[i].id = i;
		table[i].active = (seed & 1) != 0;
		table[i].offset = (int16_t) (seed - 100);
		table[i].total = 0;
		table[i].pos.x = (int16_t) (i * 10);
		table[i].pos.y = (int16_t) (seed >> 2);
	}
	best = table[0];

	for (r = 0; r < ROUNDS; r++) {
		/* array of structs, indexed */
		for (i = 0; i < N; i++) {
			if (table[i].active)
				table[i].total += (uint32_t) (table[i].offset + 200);
			table[i].pos.x = (int16_t) (table[i].pos.x + table[i].pos.y - 32);
			table[i].active = !table[i].active || (table[i].pos.x & 4) != 0;
		}
		/* walk with a pointer, keep a copy of the largest */
		for (s = table; s < table + N; s++) {
			s->offset = (int16_t) (s->offset ^ (int16_t) (r & 0x3f));
			if (s->total > best.total)
				best = *s;
			acc += s->id;
			acc += (uint16_t) s->pos.x;
		}
		table[r % N] = best;
		table[r % N].total = 0;
		best.pos.y = (int16_t) (best.pos.y + 1);
	}

	sink = acc + best.total + best.id + (uint16_t) best.pos.y;
	return 0;
}
