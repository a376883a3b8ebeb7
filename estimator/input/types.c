/* input/types.c — names, classes, ABI parsing and host-to-target type mapping, see types.h. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/types.h"

/* The vocabulary's words, from the plugin's table (gcc-plugin/roi-ops.def). */
const char *const roi_kinds[] = {
#define DEF_ROI_KIND(NAME, WORD, ORIGIN) WORD,
#define DEF_ROI_ACCESS(NAME, WORD)
#include "../../gcc-plugin/roi-ops.def"
#undef DEF_ROI_KIND
#undef DEF_ROI_ACCESS
	NULL,
};

/* The kinds roi adds from what the plugin's RTL pass read (their ORIGIN in the table). */
const char *const roi_added_kinds[] = {
#define DEF_ROI_KIND(NAME, WORD, ORIGIN) ROI_ADDED_##ORIGIN(WORD)
#define ROI_ADDED_GIMPLE(WORD)
#define ROI_ADDED_VALUE(WORD)
#define ROI_ADDED_RTL(WORD) WORD,
#define DEF_ROI_ACCESS(NAME, WORD)
#include "../../gcc-plugin/roi-ops.def"
#undef DEF_ROI_KIND
#undef ROI_ADDED_GIMPLE
#undef ROI_ADDED_VALUE
#undef ROI_ADDED_RTL
#undef DEF_ROI_ACCESS
	NULL,
};

const char *const roi_type_names[] = {
	"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "i128", "u128",
	"f16", "f32", "f64", "f80", "f128", "ptr", "bool", "agg", "vec", "cplx", "void", NULL,
};

const char *const roi_accesses[] = {
#define DEF_ROI_KIND(NAME, WORD, ORIGIN)
#define DEF_ROI_ACCESS(NAME, WORD) WORD,
#include "../../gcc-plugin/roi-ops.def"
#undef DEF_ROI_KIND
#undef DEF_ROI_ACCESS
	NULL,
};
const char *const roi_classes[] = {"int", "float", "ptr", NULL};

/* "i24" (AVR's __int24), "u40" (a 40-bit bit-field), "q16" (AVR's fixed point): a letter and a
 * width the plugin takes from the type itself, so any width is valid, not only the listed ones. */
static bool sized_type(const char *t)
{
	if (!strchr("iufq", t[0]) || t[1] < '1' || t[1] > '9')
		return false;
	for (const char *p = t + 2; *p; p++)
		if (*p < '0' || *p > '9' || p - t > 4)
			return false;
	return true;
}

bool roi_kind_is(const char *kind, const char *a, const char *b, const char *c)
{
	return strcmp(kind, a) == 0 || (b && strcmp(kind, b) == 0) || (c && strcmp(kind, c) == 0);
}

#define ROI_OPERAND_ENTRY(name) name,
static const char *const named_operands[] = {ROI_NAMED_OPERANDS(ROI_OPERAND_ENTRY) NULL};

bool roi_operand_valid(const char *s)
{
	for (size_t i = 0; named_operands[i]; i++)
		if (strcmp(s, named_operands[i]) == 0)
			return true;
	size_t n = strlen(s);
	if (n == 0 || n > 2 || strspn(s, "0123456789") != n || (n == 2 && s[0] == '0'))
		return false;
	return atoi(s) < 64;
}

bool roi_type_valid(const char *t)
{
	if (sized_type(t))
		return true;
	for (size_t i = 0; roi_type_names[i]; i++)
		if (strcmp(roi_type_names[i], t) == 0)
			return true;
	return false;
}

bool roi_type_known(const char *t)
{
	if (sized_type(t) && t[0] != 'f') {
		int bits = atoi(t + 1);

		return bits % 8 == 0 && bits <= 128;
	}
	for (size_t i = 0; roi_type_names[i]; i++)
		if (strcmp(roi_type_names[i], t) == 0)
			return true;
	return false;
}

enum roi_tclass roi_type_class(const char *t)
{
	if (!t)
		return ROI_TC_NONE;
	if ((t[0] == 'i' || t[0] == 'u') && t[1] >= '0' && t[1] <= '9')
		return ROI_TC_INT;
	if (strcmp(t, "bool") == 0)
		return ROI_TC_INT;
	if (t[0] == 'f' && t[1] >= '0' && t[1] <= '9')
		return ROI_TC_FLOAT;
	if (strcmp(t, "ptr") == 0)
		return ROI_TC_PTR;
	return ROI_TC_NONE;
}

const char *roi_class_name(enum roi_tclass c)
{
	return c == ROI_TC_NONE ? NULL : roi_classes[c - 1];
}

static const struct {
	const char *key;
	size_t offset;
} abi_fields[] = {
	{"char", offsetof(struct roi_abi, char_bits)},
	{"short", offsetof(struct roi_abi, short_bits)},
	{"int", offsetof(struct roi_abi, int_bits)},
	{"long", offsetof(struct roi_abi, long_bits)},
	{"long long", offsetof(struct roi_abi, llong_bits)},
	{"pointer", offsetof(struct roi_abi, pointer_bits)},
	{"float", offsetof(struct roi_abi, float_bits)},
	{"double", offsetof(struct roi_abi, double_bits)},
	{"long double", offsetof(struct roi_abi, ldouble_bits)},
};

static const char *const abi_keys[] = {
	"char", "short", "int", "long", "long long", "pointer", "float", "double", "long double", "char_signed", NULL,
};

int roi_abi_parse(const struct jv *v, const cJSON *obj, const char *where, const char *key, struct roi_abi *abi)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
	char w[128];

	if (!a)
		return jv_fail(v, where, "missing '%s'", key);
	snprintf(w, sizeof w, "%s%s%s", where, *where ? "." : "", key);
	if (jv_object(v, a, w) != 0 || jv_keys(v, a, w, abi_keys) != 0)
		return -1;
	for (size_t i = 0; i < sizeof abi_fields / sizeof abi_fields[0]; i++) {
		long long bits;

		if (jv_integer(v, a, w, abi_fields[i].key, true, 1, 256, &bits) != 0)
			return -1;
		*(int *)((char *)abi + abi_fields[i].offset) = (int)bits;
	}
	return jv_bool(v, a, w, "char_signed", true, &abi->char_signed);
}

/* The C basic types roi maps; GCC's spellings ("short unsigned int") and the canonical ones
 * ("unsigned short") both parse, since only the words matter. */
enum cbasic { CB_NONE, CB_CHAR, CB_SHORT, CB_INT, CB_LONG, CB_LLONG, CB_BOOL, CB_FLOAT, CB_DOUBLE, CB_LDOUBLE,
	      CB_POINTER_SIZED };

static enum cbasic parse_ctype(const char *s, bool *plain_char)
{
	/* <stddef.h> and <stdint.h> sizes are as wide as a pointer everywhere */
	static const char *const pointer_sized[] = {"size_t", "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t"};
	int nlong = 0, nshort = 0, nint = 0, nchar = 0, nsign = 0, nfloat = 0, ndouble = 0, nbool = 0;

	*plain_char = false;
	for (size_t i = 0; i < sizeof pointer_sized / sizeof pointer_sized[0]; i++)
		if (strcmp(s, pointer_sized[i]) == 0)
			return CB_POINTER_SIZED;

	while (*s) {
		size_t n = strcspn(s, " ");
		if (n == 0) {
			s++;
			continue;
		}
#define WORD(w) (n == sizeof(w) - 1 && strncmp(s, w, n) == 0)
		if (WORD("long"))
			nlong++;
		else if (WORD("short"))
			nshort++;
		else if (WORD("int"))
			nint++;
		else if (WORD("char"))
			nchar++;
		else if (WORD("signed") || WORD("unsigned"))
			nsign++;
		else if (WORD("float"))
			nfloat++;
		else if (WORD("double"))
			ndouble++;
		else if (WORD("_Bool") || WORD("bool"))
			nbool++;
		else
			return CB_NONE;
#undef WORD
		s += n;
	}
	*plain_char = nchar && !nsign;
	if (nbool)
		return nlong + nshort + nint + nchar + nsign + nfloat + ndouble == 0 ? CB_BOOL : CB_NONE;
	if (nfloat || ndouble) {
		if (nshort + nint + nchar + nsign || nfloat + ndouble > 1)
			return CB_NONE;
		return nfloat ? (nlong ? CB_NONE : CB_FLOAT) : nlong == 0 ? CB_DOUBLE : nlong == 1 ? CB_LDOUBLE : CB_NONE;
	}
	if (nchar)
		return nshort + nlong + nint ? CB_NONE : CB_CHAR;
	if (nshort)
		return nlong ? CB_NONE : CB_SHORT;
	if (nlong)
		return nlong == 1 ? CB_LONG : nlong == 2 ? CB_LLONG : CB_NONE;
	return nint || nsign ? CB_INT : CB_NONE;
}

static const char *intern(const char *name)
{
	for (size_t i = 0; roi_type_names[i]; i++)
		if (strcmp(roi_type_names[i], name) == 0)
			return roi_type_names[i];
	return NULL;
}

/* promoted: the width of the unsigned type an int operation's operands were promoted from (0:
 * none). Where the target's int is no wider, C promotes that type to unsigned int instead, and
 * the operation computes unsigned. */
const char *roi_type_to_target(const char *type, const char *ctype, int promoted, const struct roi_abi *abi)
{
	enum roi_tclass tc = roi_type_class(type);
	bool plain_char = false, c_float = false;
	char buf[16];
	int bits;

	if (!type || !ctype || tc == ROI_TC_NONE || tc == ROI_TC_PTR)
		return type;    /* a pointer's type is "ptr" at any width */
	/* an intN_t keeps its width: no C basic type, the type stays as it is */
	switch (parse_ctype(ctype, &plain_char)) {
	case CB_CHAR: bits = abi->char_bits; break;
	case CB_SHORT: bits = abi->short_bits; break;
	case CB_INT: bits = abi->int_bits; break;
	case CB_LONG: bits = abi->long_bits; break;
	case CB_LLONG: bits = abi->llong_bits; break;
	case CB_FLOAT: bits = abi->float_bits; c_float = true; break;
	case CB_DOUBLE: bits = abi->double_bits; c_float = true; break;
	case CB_LDOUBLE: bits = abi->ldouble_bits; c_float = true; break;
	case CB_POINTER_SIZED: bits = abi->pointer_bits; break;
	default: return type;   /* _Bool, and C types roi does not know */
	}
	/* Integer and floating never stand in for each other, even through the C type. */
	if (tc == ROI_TC_FLOAT && c_float)
		snprintf(buf, sizeof buf, "f%d", bits);
	else if (tc == ROI_TC_INT && !c_float && type[0] != 'b')
		snprintf(buf, sizeof buf, "%c%d", plain_char ? (abi->char_signed ? 'i' : 'u')
			 : promoted && bits <= promoted && bits == abi->int_bits ? 'u' : type[0], bits);
	else
		return type;
	const char *t = intern(buf);
	return t ? t : type;
}
