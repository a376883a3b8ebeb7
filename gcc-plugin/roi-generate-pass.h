/* roi-generate-pass.h — the boilerplate of one of the plugin's passes, written
 * once (the Linux kernel's scripts/gcc-plugins/gcc-generate-*-pass.h do the
 * same).  A pass file defines its execute function and, before including this
 * header, the pass's name and kind:
 *
 *   static unsigned int roi_frame_execute (function *fun) { ... }
 *
 *   #define PASS_NAME roi_frame          the name GCC knows the pass by
 *   #define PASS_TYPE RTL_PASS           or GIMPLE_PASS
 *   #define PROPERTIES_REQUIRED PROP_cfg optional: pass_data's properties
 *   #include "roi-generate-pass.h"       and todo flags, 0 when not defined
 *
 * which defines make_roi_frame_pass (), the one name it exports, for
 * plugin_init to register, and undefines the macros above.  The pass runs
 * PASS_NAME_execute on every function compiled; it has no gate.  */

#ifndef PASS_NAME
#error "define PASS_NAME before including roi-generate-pass.h"
#endif
#ifndef PASS_TYPE
#error "define PASS_TYPE (GIMPLE_PASS or RTL_PASS) before including roi-generate-pass.h"
#endif

#ifndef PROPERTIES_REQUIRED
#define PROPERTIES_REQUIRED 0
#endif
#ifndef PROPERTIES_PROVIDED
#define PROPERTIES_PROVIDED 0
#endif
#ifndef PROPERTIES_DESTROYED
#define PROPERTIES_DESTROYED 0
#endif
#ifndef TODO_FLAGS_START
#define TODO_FLAGS_START 0
#endif
#ifndef TODO_FLAGS_FINISH
#define TODO_FLAGS_FINISH 0
#endif

#define ROI_PASS_STRING_(x) #x
#define ROI_PASS_STRING(x) ROI_PASS_STRING_ (x)
#define ROI_PASS_CAT_(a, b) a##b
#define ROI_PASS_CAT(a, b) ROI_PASS_CAT_ (a, b)
/* The class a pass of PASS_TYPE derives from.  */
#define ROI_PASS_BASE_GIMPLE_PASS gimple_opt_pass
#define ROI_PASS_BASE_RTL_PASS rtl_opt_pass
#define ROI_PASS_BASE ROI_PASS_CAT (ROI_PASS_BASE_, PASS_TYPE)

#define ROI_PASS_DATA ROI_PASS_CAT (PASS_NAME, _pass_data)
#define ROI_PASS_CLASS ROI_PASS_CAT (PASS_NAME, _pass)
#define ROI_PASS_EXECUTE ROI_PASS_CAT (PASS_NAME, _execute)
#define ROI_PASS_MAKE ROI_PASS_CAT (make_, ROI_PASS_CLASS)

namespace {

const pass_data ROI_PASS_DATA = {
  .type = PASS_TYPE,
  .name = ROI_PASS_STRING (PASS_NAME),
  .optinfo_flags = OPTGROUP_NONE,
  .tv_id = TV_NONE,
  .properties_required = PROPERTIES_REQUIRED,
  .properties_provided = PROPERTIES_PROVIDED,
  .properties_destroyed = PROPERTIES_DESTROYED,
  .todo_flags_start = TODO_FLAGS_START,
  .todo_flags_finish = TODO_FLAGS_FINISH,
};

class ROI_PASS_CLASS : public ROI_PASS_BASE
{
public:
  ROI_PASS_CLASS () : ROI_PASS_BASE (ROI_PASS_DATA, g) {}
  virtual opt_pass *clone () { return new ROI_PASS_CLASS (); }
  virtual unsigned int execute (function *fun) { return ROI_PASS_EXECUTE (fun); }
};

} /* namespace */

opt_pass *
ROI_PASS_MAKE (void)
{
  return new ROI_PASS_CLASS ();
}

#undef PASS_NAME
#undef PASS_TYPE
#undef PROPERTIES_REQUIRED
#undef PROPERTIES_PROVIDED
#undef PROPERTIES_DESTROYED
#undef TODO_FLAGS_START
#undef TODO_FLAGS_FINISH
#undef ROI_PASS_STRING_
#undef ROI_PASS_STRING
#undef ROI_PASS_CAT_
#undef ROI_PASS_CAT
#undef ROI_PASS_BASE_GIMPLE_PASS
#undef ROI_PASS_BASE_RTL_PASS
#undef ROI_PASS_BASE
#undef ROI_PASS_DATA
#undef ROI_PASS_CLASS
#undef ROI_PASS_EXECUTE
#undef ROI_PASS_MAKE
