/* input/types.h — roi's vocabulary (operation kinds, types, accesses; docs/formats.md §1), the C ABI
 * description shared by metadata and models, and the mapping of host types to a target ABI
 * (models/README.md, "Host profiles and the target ABI"). */
#ifndef ROI_TYPES_H
#define ROI_TYPES_H

#include <stdbool.h>

#include "input/jv.h"

/* NULL-terminated lists of the documented names; the kinds and accesses are those of the
 * vocabulary's table, gcc-plugin/roi-ops.def, which the plugin expands too. */
extern const char *const roi_kinds[];
extern const char *const roi_added_kinds[];     /* the kinds roi adds from the RTL pass's rows */

/* A kind by its name in the table: ROI_KIND(SAVE) is "save". */
enum roi_kind_id {
#define DEF_ROI_KIND(NAME, WORD, ORIGIN) ROI_K_##NAME,
#define DEF_ROI_ACCESS(NAME, WORD)
#include "../../gcc-plugin/roi-ops.def"
#undef DEF_ROI_KIND
#undef DEF_ROI_ACCESS
};
#define ROI_KIND(NAME) (roi_kinds[ROI_K_##NAME])
extern const char *const roi_type_names[];
extern const char *const roi_accesses[];
extern const char *const roi_classes[];     /* "int", "float", "ptr" */

enum roi_tclass { ROI_TC_NONE, ROI_TC_INT, ROI_TC_FLOAT, ROI_TC_PTR };

/* i*, u* and bool are int; f* float; ptr ptr; agg, vec, cplx, void have no class. */
/* A type name the metadata may carry: the listed names or a letter and width ("i24", "u40"). */
bool roi_type_valid(const char *t);
/* A type a user may name (a budget's ops:KIND:TYPE, a model's entry): one an operation can have on
 * a target GCC compiles for. The listed names, or an integer or fixed-point type of whole bytes up
 * to 128 bits ("i24", AVR's __int24): a width roi_type_valid would take, such as "i99", names
 * nothing that can ever run, and a limit or a cost for it would silently hold for nothing. */
bool roi_type_known(const char *t);

/* The kind of operand that decides an operation's code, as the metadata and models name it:
 * "const" (a constant second operand), "pow2" (a multiply or divide by a power of two, or its
 * negative), "wide" (a multiply by a constant wider than half the width), the amount of a shift,
 * rotate or subscript scaling ("0" to "63"), where a loaded or stored variable
 * lives ("local", "global"), a switch expanded as a jump table ("table"), a division or
 * remainder whose partner of the same operands came before ("paired"), or a multiply of two
 * extended halves ("widen"), a signed integer's comparison with zero that tests its sign ("sign"). */
bool roi_operand_valid(const char *s);
/* Whether kind is a, b or c (b and c may be NULL). */
bool roi_kind_is(const char *kind, const char *a, const char *b, const char *c);
/* The named operand kinds (docs/formats.md, "Operands"), X(name) each: the one list that
 * roi_operand_valid accepts and ROI_OPERAND_VALUES names. Besides them: a shift amount. */
#define ROI_NAMED_OPERANDS(X)                                                                      \
	X("const") X("pow2") X("wide") X("local") X("global") X("table") X("paired") X("widen") X("sign")
#define ROI_OPERAND_QUOTED(name) "\"" name "\", "
/* What roi_operand_valid accepts, for error messages. */
#define ROI_OPERAND_VALUES ROI_NAMED_OPERANDS(ROI_OPERAND_QUOTED) "or a shift amount (0 to 63)"

enum roi_tclass roi_type_class(const char *type);
const char *roi_class_name(enum roi_tclass c);  /* NULL for ROI_TC_NONE */

/* Widths in bits, as in the metadata's and the model's "abi" objects. */
struct roi_abi {
	int char_bits, short_bits, int_bits, long_bits, llong_bits;
	int pointer_bits, float_bits, double_bits, ldouble_bits;
	bool char_signed;
};

/* Reads obj[key] (all fields required). */
int roi_abi_parse(const struct jv *v, const cJSON *obj, const char *where, const char *key, struct roi_abi *abi);

/* The type an operation computed in `type` (host) with C type `ctype` has under `abi`: integer
 * C types take the ABI width (signedness from `type`, except plain char, whose signedness is
 * the ABI's), floating C types become f<width>, pointers stay ptr. Anything else (no ctype,
 * an unknown C type, a class mismatch, _Bool) keeps `type`. Returns a static string or `type`. */
const char *roi_type_to_target(const char *type, const char *ctype, int promoted, const struct roi_abi *abi);

#endif
