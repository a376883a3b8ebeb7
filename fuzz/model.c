/* fuzz/model.c — the cost model reader (estimator/input/model.c) on arbitrary bytes.
 *
 * Models are JSON files people write by hand (models/README.md): whatever the file holds,
 * roi_model_parse must answer with a model or one error line. An accepted model is then asked what
 * every kind of operation costs, for a few types, accesses and callees, as the estimator asks it.
 * Every number of an accepted model is finite and within the loader's bounds, so that no estimate
 * made with it can be inf or nan (2^64 operations at the largest cost are some 2e28 cycles); no two
 * of its entries match the same operations, and every type it names is one roi_type_known takes. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/model.h"
#include "input/types.h"

/* The loader's bounds (model.c), generously: finite, not negative, far below what could overflow. */
static void check_numbers(const struct roi_model *m)
{
	if (!(m->clock_hz >= 1 && m->clock_hz <= 1e11) || !(m->energy_per_cycle_j >= 0 && m->energy_per_cycle_j <= 1e-3) ||
	    !(m->supply_v >= 0 && m->supply_v <= 1e3))
		abort();
	for (size_t i = 0; i < m->ncosts; i++) {
		const struct roi_cost *c = &m->costs[i];

		if (!(c->cycles >= 0 && c->cycles <= 1e9) || (c->has_energy && !(c->energy_j >= 0 && c->energy_j <= 1)) ||
		    !isfinite(roi_cost_energy(m, c)) || (c->type && !roi_type_known(c->type)) ||
		    (c->from && !roi_type_known(c->from)))
			abort();
	}
}

static void ask(const struct roi_model *m)
{
	static const char *const types[] = {NULL, "void", "u8", "i16", "u32", "i64", "f32", "f64", "ptr", "agg", "u24"};
	static const char *const accesses[] = {NULL, "var", "array", "deref"};
	char buf[256];
	bool fallback;

	for (size_t k = 0; roi_kinds[k]; k++)
		for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
			for (size_t a = 0; a < sizeof accesses / sizeof accesses[0]; a++) {
				struct roi_opkey op = {roi_kinds[k], types[t], accesses[a],
						       strcmp(roi_kinds[k], "call") == 0 ? "memcpy" : NULL,
						       strcmp(roi_kinds[k], "conv") == 0 ? "i8" : NULL, NULL, 0};
				const struct roi_cost *c = roi_model_lookup(m, &op, &fallback);

				if (c) {
					roi_cost_describe(c, buf, sizeof buf);
					if (roi_cost_energy(m, c) < 0)
						abort();
				}
			}
	roi_model_matches_target(m, "avr");
	roi_model_matches_target(m, "x86_64-linux-gnu");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);      /* as roi_read_file gives it: a NUL after the bytes */
	struct roi_model m;
	struct roi_err err;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	if (roi_model_parse("fuzz.json", text, size, &m, &err) == 0) {
		check_numbers(&m);
		ask(&m);
	}
	else if (strchr(err.msg, '\n'))
		abort();        /* an error is one line */
	roi_model_free(&m);
	free(text);
	return 0;
}
