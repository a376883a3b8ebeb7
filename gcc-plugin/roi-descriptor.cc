/* roi-descriptor.cc — what the host runtime reads of a counted unit: a
 * descriptor per function and the constructor that registers the unit.
 *
 * On a host each counted function gets a descriptor (struct roi_fn_desc of
 * runtime/roi.h: the unit, the function's index and checksum, its counters)
 * in the section roi_fn_<unit>; the unit's constructor hands that section's
 * bounds to the runtime, the way gcov's units call __gcov_init.  A C
 * identifier for a name, so the linker defines __start_ and __stop_ for it
 * (firmware linker scripts need KEEP()).  With runtime=none there are
 * neither: a runner reads the counters from RAM.  */
#include "roi-descriptor.h"
#include "roi-meta.h"
#include "roi-plugin.h"
#include "roi-util.h"

/* The constructor is artificial, so the pass never counts it.  */
static bool constructor_built;

/* struct roi_fn_desc of runtime/roi.h.  */
static tree
descriptor_type (void)
{
  if (!roi_gc[ROI_GC_DESC_TYPE])
    {
      static const char *const names[6] = {
	"unit", "index", "checksum", "ncounters", "counter_bits", "counters"
      };
      tree types[6] = { uint64_type_node, uint32_type_node, uint32_type_node,
			uint32_type_node, uint32_type_node, ptr_type_node };
      roi_gc[ROI_GC_DESC_TYPE] = roi_build_struct ("roi_fn_desc", names, types, 6);
    }
  return roi_gc[ROI_GC_DESC_TYPE];
}

static void
section_name (char *buf, size_t size)
{
  /* A C identifier, so the linker defines __start_ and __stop_ for it.  */
  snprintf (buf, size, "roi_fn_%s", roi_unit_id ());
}

void
roi_descriptor_create (unsigned fn_index, unsigned checksum, unsigned n,
		       tree counters)
{
  if (roi_opts.runtime != ROI_RUNTIME_HOST)
    return;
  tree type = descriptor_type ();
  unsigned long long unit = strtoull (roi_unit_id (), NULL, 16);
  tree values[6] = {
    build_int_cstu (uint64_type_node, unit),
    build_int_cst (uint32_type_node, fn_index),
    build_int_cst (uint32_type_node, checksum),
    build_int_cst (uint32_type_node, n),
    build_int_cst (uint32_type_node, roi_opts.counter_bits),
    fold_convert (ptr_type_node, build_fold_addr_expr (counters)),
  };
  vec<constructor_elt, va_gc> *elts = NULL;
  for (int i = 0; i < 6; i++)
    CONSTRUCTOR_APPEND_ELT (elts, roi_struct_field (type, i), values[i]);

  char name[64], section[64];
  snprintf (name, sizeof name, "__roi_d_%s_%u", roi_unit_id (), fn_index);
  tree var = roi_static_var (name, type);
  DECL_INITIAL (var) = build_constructor (type, elts);
  /* The runtime walks the section as an array: no alignment beyond the
     type's own, or the target could pad between descriptors.  */
  SET_DECL_ALIGN_COMPAT (var, TYPE_ALIGN (type));
  DECL_USER_ALIGN (var) = 1;
  DECL_PRESERVE_P (var) = 1;
  section_name (section, sizeof section);
  set_decl_section_name (var, section);
  varpool_node::finalize_decl (var);
}

tree
roi_descriptor_section_bound (const char *prefix)
{
  char name[96];
  snprintf (name, sizeof name, "%sroi_fn_%s", prefix, roi_unit_id ());
  tree var = build_decl (UNKNOWN_LOCATION, VAR_DECL, get_identifier (name),
			 char_type_node);
  TREE_PUBLIC (var) = 1;
  DECL_EXTERNAL (var) = 1;
  DECL_ARTIFICIAL (var) = 1;
  /* Weak: if every instrumented function of the unit was optimised away the
     section is empty, the linker defines no bounds, and both are null.  */
  DECL_WEAK (var) = 1;
  DECL_VISIBILITY (var) = VISIBILITY_HIDDEN;
  DECL_VISIBILITY_SPECIFIED (var) = 1;
  return var;
}

/* Built before the IPA passes, the point where GCC builds gcov's own
   constructor, because functions added later would be compiled in the middle
   of another function's passes.  */
void
roi_constructor_create (void)
{
  if (roi_opts.runtime != ROI_RUNTIME_HOST || constructor_built || seen_error ())
    return;
  tree fntype = build_function_type_list (void_type_node, uint32_type_node,
					  const_ptr_type_node,
					  const_ptr_type_node, NULL_TREE);
  tree fn = build_fn_decl ("__roi_register_unit", fntype);
  DECL_EXTERNAL (fn) = 1;
  TREE_PUBLIC (fn) = 1;
  tree call = build_call_expr (fn, 3, build_int_cst (uint32_type_node, 1),
			       build_fold_addr_expr (roi_descriptor_section_bound ("__start_")),
			       build_fold_addr_expr (roi_descriptor_section_bound ("__stop_")));
  cgraph_build_static_cdtor ('I', call, DEFAULT_INIT_PRIORITY);
  constructor_built = true;
}
