/* input/model.c — loading cost models and looking costs up, see model.h. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base/datadir.h"
#include "base/readfile.h"
#include "input/jv.h"
#include "input/model.h"

/* The largest numbers a model may hold (models/README.md): far above any part roi models, and
 * small enough that no estimate from 64-bit counts can overflow a double (2^64 operations at the
 * largest cost are 2e28 cycles). */
#define MAX_CYCLES 1e9                  /* per execution of an operation */
#define MAX_ENERGY_J 1.0                /* per execution of an operation */
#define MAX_CLOCK_HZ 1e11
#define MAX_ENERGY_PER_CYCLE_J 1e-3
#define MAX_SUPPLY_V 1e3

static const char *const cost_fields[] = {
	"kind", "type", "class", "access", "callee", "from", "operand", "subscripts", "cycles", "energy_j", "note", NULL,
};

static int parse_cost(const struct jv *v, const cJSON *o, const char *w, struct roi_cost *c)
{
	if (jv_object(v, o, w) || jv_string(v, o, w, "kind", true, &c->kind) ||
	    jv_number(v, o, w, "cycles", true, 0, MAX_CYCLES, &c->cycles) ||
	    jv_one_of(v, w, "kind", c->kind, roi_kinds) || jv_string(v, o, w, "type", false, &c->type) ||
	    jv_string(v, o, w, "class", false, &c->cls) || jv_string(v, o, w, "access", false, &c->access) ||
	    jv_string(v, o, w, "callee", false, &c->callee) || jv_string(v, o, w, "from", false, &c->from) ||
	    jv_string(v, o, w, "operand", false, &c->operand) || jv_string(v, o, w, "note", false, &c->note) ||
	    jv_integer(v, o, w, "subscripts", false, 2, 64, &c->subscripts))
		return -1;
	if ((c->type && !roi_type_known(c->type) && jv_one_of(v, w, "type", c->type, roi_type_names)) ||
	    (c->cls && jv_one_of(v, w, "class", c->cls, roi_classes)) ||
	    (c->access && jv_one_of(v, w, "access", c->access, roi_accesses)) ||
	    (c->from && !roi_type_known(c->from) && jv_one_of(v, w, "from", c->from, roi_type_names)) ||
	    (c->operand && !roi_operand_valid(c->operand) &&
	     jv_fail(v, w, "operand '%s' is not " ROI_OPERAND_VALUES, c->operand)))
		return -1;
	if (cJSON_GetObjectItemCaseSensitive(o, "energy_j")) {
		if (jv_number(v, o, w, "energy_j", true, 0, MAX_ENERGY_J, &c->energy_j) != 0)
			return -1;
		c->has_energy = true;
	}
	/* An unknown key is most likely a misspelt match field, which would silently widen the match. */
	if (jv_keys(v, o, w, cost_fields) != 0)
		return -1;
	c->specificity = 2 * !!c->type + !!c->cls + !!c->access + !!c->callee + !!c->from + !!c->operand +
			 !!c->subscripts;
	return 0;
}

/* The keys of a model (models/README.md); "calibration" and the free text are roi calibrate's. */
static const char *const model_keys[] = {
	"roi_model", "part", "arch", "core", "clock_hz", "supply_v", "energy_per_cycle_j", "energy_source",
	"compiler", "opt", "abi", "provenance", "costs", "mcu", "flags", "calibration", "routines",
	"routines_source", "flash_wait_states", NULL,
};

static int cmp_field(const char *a, const char *b)
{
	return a == b ? 0 : !a ? -1 : !b ? 1 : strcmp(a, b);
}

/* Entries by their match fields: equal ones match the same operations. */
static int cmp_match(const struct roi_cost *a, const struct roi_cost *b)
{
	int c = strcmp(a->kind, b->kind);

	if (!c)
		c = cmp_field(a->type, b->type);
	if (!c)
		c = cmp_field(a->cls, b->cls);
	if (!c)
		c = cmp_field(a->access, b->access);
	if (!c)
		c = cmp_field(a->callee, b->callee);
	if (!c)
		c = cmp_field(a->from, b->from);
	if (!c)
		c = cmp_field(a->operand, b->operand);
	return c ? c : a->subscripts < b->subscripts ? -1 : a->subscripts > b->subscripts;
}

static int by_match(const void *x, const void *y)
{
	const struct roi_cost *a = *(const struct roi_cost *const *)x, *b = *(const struct roi_cost *const *)y;
	int c = cmp_match(a, b);

	return c ? c : a->index < b->index ? -1 : a->index > b->index;
}

/* Two entries with the same match fields: the lookup takes the first, and the second would be
 * silently ignored. */
static int no_duplicate_entries(const struct jv *v, const struct roi_cost *c, size_t n)
{
	const struct roi_cost **s = roi_xrealloc(NULL, n ? n : 1, sizeof *s);
	char w[64], what[256];
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		s[i] = &c[i];
	qsort(s, n, sizeof *s, by_match);
	for (size_t i = 1; i < n && rc == 0; i++) {
		if (cmp_match(s[i - 1], s[i]) != 0)
			continue;
		snprintf(w, sizeof w, "costs[%zu]", s[i]->index);
		rc = jv_fail(v, w, "the same operation as costs[%zu] (%s): one of them would be ignored", s[i - 1]->index,
			     roi_cost_describe(s[i], what, sizeof what));
	}
	free(s);
	return rc;
}

static const char *const routine_fields[] = {
	"routine", "cycles", "instructions", "value", "per_value", "per_value_instructions", "typical_value", "note",
	NULL,
};
static const char *const value_fields[] = {"kind", "type", "callee", "from", "width", "register", NULL};

static int parse_routine(const struct jv *v, const cJSON *o, const char *w, struct roi_routine_cost *r)
{
	const cJSON *value;
	char vw[96];

	r->instructions = -1;
	r->value_register = -1;
	if (jv_object(v, o, w) || jv_keys(v, o, w, routine_fields) ||
	    jv_string(v, o, w, "routine", true, &r->routine) ||
	    jv_number(v, o, w, "cycles", true, 0, MAX_CYCLES, &r->cycles) ||
	    jv_number(v, o, w, "instructions", false, 0, MAX_CYCLES, &r->instructions) ||
	    jv_string(v, o, w, "note", false, &r->note))
		return -1;
	if (!(value = cJSON_GetObjectItemCaseSensitive(o, "value")))
		return 0;
	snprintf(vw, sizeof vw, "%s.value", w);
	if (jv_object(v, value, vw) || jv_keys(v, value, vw, value_fields) ||
	    jv_string(v, value, vw, "kind", true, &r->value_kind) ||
	    jv_one_of(v, vw, "kind", r->value_kind, roi_kinds) ||
	    jv_string(v, value, vw, "type", false, &r->value_type) ||
	    jv_string(v, value, vw, "callee", false, &r->value_callee) ||
	    jv_string(v, value, vw, "from", false, &r->value_from) ||
	    jv_integer(v, value, vw, "width", false, 8, 128, &r->value_width) ||
	    jv_integer(v, value, vw, "register", false, 0, 31, &r->value_register) ||
	    jv_number(v, o, w, "per_value", true, 0, MAX_CYCLES, &r->per_value) ||
	    jv_number(v, o, w, "per_value_instructions", false, 0, MAX_CYCLES, &r->per_value_instructions) ||
	    jv_number(v, o, w, "typical_value", true, 0, MAX_CYCLES, &r->typical_value))
		return -1;
	return 0;
}

static int parse_routines(const struct jv *v, const cJSON *root, struct roi_model *m)
{
	const cJSON *list, *x;
	size_t i = 0;
	char w[64];

	if (!cJSON_GetObjectItemCaseSensitive(root, "routines"))
		return 0;
	if (jv_array(v, root, "", "routines", true, &list))
		return -1;
	struct roi_routine_cost *r = roi_arena_array(v->arena, (size_t)cJSON_GetArraySize(list), sizeof *r);
	cJSON_ArrayForEach(x, list) {
		snprintf(w, sizeof w, "routines[%zu]", i);
		if (parse_routine(v, x, w, &r[i]) != 0)
			return -1;
		for (size_t k = 0; k < i; k++)
			if (strcmp(r[k].routine, r[i].routine) == 0)
				return jv_fail(v, w, "routine %s again (routines[%zu])", r[i].routine, k);
		i++;
	}
	m->routines = r;
	m->nroutines = i;
	return 0;
}

const struct roi_routine_cost *roi_model_routine(const struct roi_model *m, const char *name)
{
	for (size_t i = 0; i < m->nroutines; i++)
		if (strcmp(m->routines[i].routine, name) == 0)
			return &m->routines[i];
	return NULL;
}

static int parse_model(const struct jv *v, const cJSON *root, struct roi_model *m)
{
	const cJSON *costs, *x;
	long long version;
	size_t i = 0;
	char w[64];

	if (jv_object(v, root, ""))
		return -1;
	if (!cJSON_GetObjectItemCaseSensitive(root, "roi_model"))
		return jv_fail(v, "", "missing 'roi_model' (not a roi cost model)");
	if (jv_integer(v, root, "", "roi_model", true, 0, 1000000, &version))
		return -1;
	if (version != 1)
		return jv_fail(v, "", "unsupported model version %lld (this roi reads version 1)", version);
	if (jv_keys(v, root, "", model_keys) != 0)
		return -1;
	if (jv_string(v, root, "", "part", true, &m->part) || jv_string(v, root, "", "arch", true, &m->arch) ||
	    jv_string(v, root, "", "core", false, &m->core) || jv_string(v, root, "", "mcu", false, &m->mcu) ||
	    jv_number(v, root, "", "clock_hz", true, 1, MAX_CLOCK_HZ, &m->clock_hz) ||
	    jv_number(v, root, "", "supply_v", false, 0, MAX_SUPPLY_V, &m->supply_v) ||
	    jv_number(v, root, "", "energy_per_cycle_j", true, 0, MAX_ENERGY_PER_CYCLE_J, &m->energy_per_cycle_j) ||
	    jv_string(v, root, "", "compiler", false, &m->compiler) || jv_string(v, root, "", "opt", false, &m->opt) ||
	    roi_abi_parse(v, root, "", "abi", &m->abi) || jv_array(v, root, "", "costs", true, &costs) ||
	    jv_number(v, root, "", "flash_wait_states", false, 0, 15, &m->flash_wait_states) ||
	    parse_routines(v, root, m))
		return -1;
	if (!*m->arch)
		return jv_fail(v, "", "arch: must not be empty");
	struct roi_cost *c = roi_arena_array(v->arena, (size_t)cJSON_GetArraySize(costs), sizeof *c);
	cJSON_ArrayForEach(x, costs) {
		snprintf(w, sizeof w, "costs[%zu]", i);
		c[i].index = i;
		if (parse_cost(v, x, w, &c[i]) != 0)
			return -1;
		i++;
	}
	m->costs = c;
	m->ncosts = i;
	return no_duplicate_entries(v, c, i);
}

int roi_model_parse(const char *path, const char *text, size_t len, struct roi_model *m, struct roi_err *err)
{
	struct jv v = {err, path, &m->arena};
	cJSON *root;
	int rc;

	memset(m, 0, sizeof *m);
	m->path = roi_arena_strdup(&m->arena, path);
	v.prefix = m->path;
	if (!(root = jv_parse(&v, text, len, true)))
		return -1;
	rc = parse_model(&v, root, m);
	cJSON_Delete(root);
	return rc;
}

/* A model given by name ("atmega32u4-Os"): one of roi's own, models/NAME.json of its tree or of its
 * installed share/roi/models. NULL, with the error naming what is there, when there is none. */
static char *model_by_name(const char *name, struct roi_err *err)
{
	char *dir = roi_data_path("models", "share/roi/models"), *path = NULL, list[512] = "";
	glob_t g;

	if (dir) {
		size_t n = strlen(dir) + strlen(name) + 8;
		path = malloc(n);
		if (!path)
			abort();
		snprintf(path, n, "%s/%s.json", dir, name);
		if (access(path, F_OK) == 0) {
			free(dir);
			return path;
		}
		snprintf(path, n, "%s/*.json", dir);
		if (glob(path, 0, NULL, &g) == 0) {
			for (size_t i = 0; i < g.gl_pathc; i++) {
				const char *base = strrchr(g.gl_pathv[i], '/') + 1;
				size_t used = strlen(list);
				snprintf(list + used, sizeof list - used, "%s%.*s", used ? ", " : "",
					 (int)(strlen(base) - 5), base);
			}
			globfree(&g);
		}
		free(path);
	}
	roi_err_set(err, "%s: no such file, and no model of that name (%s%s)", name,
		    list[0] ? "roi's models: " : "roi's models were not found", list);
	free(dir);
	return NULL;
}

int roi_model_load(const char *path, struct roi_model *m, struct roi_err *err)
{
	char *text, *named = NULL;
	size_t len;
	int rc;

	memset(m, 0, sizeof *m);
	/* A name rather than a path: no slash, no such file. */
	if (!strchr(path, '/') && access(path, F_OK) != 0 && !(path = named = model_by_name(path, err)))
		return -1;
	rc = roi_read_file(path, ROI_MAX_MODEL, &text, &len, err);
	if (rc == 0) {
		rc = roi_model_parse(path, text, len, m, err);
		free(text);
	}
	free(named);
	return rc;
}

void roi_model_free(struct roi_model *m)
{
	roi_arena_free(&m->arena);
	memset(m, 0, sizeof *m);
}

/* An entry's field agrees when it is absent or equal to the operation's. */
static bool agrees(const char *entry, const char *op)
{
	return !entry || (op && strcmp(entry, op) == 0);
}

const struct roi_cost *roi_model_lookup(const struct roi_model *m, const struct roi_opkey *op, bool *fallback)
{
	const char *cls = roi_class_name(roi_type_class(op->type));
	const struct roi_cost *best = NULL;

	for (size_t i = 0; i < m->ncosts; i++) {
		const struct roi_cost *c = &m->costs[i];

		if (strcmp(c->kind, op->kind) != 0 || !agrees(c->type, op->type) || !agrees(c->cls, cls) ||
		    !agrees(c->access, op->access) || !agrees(c->callee, op->callee) || !agrees(c->from, op->from) ||
		    !agrees(c->operand, op->operand) || (c->subscripts && c->subscripts != op->subscripts))
			continue;
		if (!best || c->specificity > best->specificity)
			best = c;
	}
	/* An operand is a refinement: an entry for any operand is not a fallback for a constant one. */
	*fallback = best && ((op->type && strcmp(op->type, "void") != 0 && !best->type) ||
			     (op->access && !best->access) || (op->callee && !best->callee) ||
			     (op->from && !best->from));
	return best;
}

double roi_cost_energy(const struct roi_model *m, const struct roi_cost *c)
{
	return c->has_energy ? c->energy_j : c->cycles * m->energy_per_cycle_j;
}

const char *roi_cost_describe(const struct roi_cost *c, char *buf, size_t size)
{
	char subs[32] = "";

	if (c->subscripts)
		snprintf(subs, sizeof subs, " subscripts=%lld", c->subscripts);
	snprintf(buf, size, "%s%s%s%s%s%s%s%s%s%s%s%s%s%s", c->kind, c->type ? " type=" : "", c->type ? c->type : "",
		 c->cls ? " class=" : "", c->cls ? c->cls : "", c->access ? " access=" : "", c->access ? c->access : "",
		 c->callee ? " callee=" : "", c->callee ? c->callee : "", c->from ? " from=" : "",
		 c->from ? c->from : "", c->operand ? " operand=" : "", c->operand ? c->operand : "", subs);
	return buf;
}

bool roi_model_matches_target(const struct roi_model *m, const char *target)
{
	return strncmp(target, m->arch, strlen(m->arch)) == 0;
}
