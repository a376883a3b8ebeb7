/* roi-exec.cc — fork and the exec family, redirected to the host runtime's wrappers.
 *
 * exec replaces the process without running the exit writer, so the counts
 * made before it were lost.  For -fprofile-arcs GCC calls libgcov's wrappers
 * instead (__gcov_execv..., expand_builtin_fork_or_exec), which write the
 * counts first.  roi does the same in a unit that registers with libroi: a
 * direct call of execl, execle, execlp, execv, execve, execvp, execvpe or
 * fexecve calls __roi_NAME, which writes the profile and then calls NAME, and
 * a call of fork calls __roi_fork, whose child starts from zero, so that the
 * parent's counts are written once, by the parent (runtime/roi-exec.c).  Where
 * -fprofile-arcs made the call __gcov_NAME, it becomes __roi_gcov_NAME, which
 * does roi's part and then calls libgcov's: neither tool loses counts.
 *
 * Only the symbol of the call changes, and only just before the assembly is
 * written: GCC allocates registers differently around a call of its builtin
 * fork than around any other function, so a redirection in GIMPLE changed the
 * spills and the frame the metadata reports.  The metadata names NAME.
 *
 * Not redirected: calls in a function that calls vfork, whose child shares
 * its parent's memory (the parent writes what the child counted, and the
 * child must do nothing but exec), and every call in a unit that does not
 * register (it must not need libroi for this alone).  A program that does
 * not link libroi fails to link, naming __roi_NAME as it names
 * __roi_register_unit.  */
#include "roi-exec.h"
#include "roi-plugin.h"
#include "rtl.h"
#include "rtl-iter.h"
#include "emit-rtl.h"

struct exec_function
{
  const char *name, *wrapper;
  int nargs;		/* named parameters */
  bool variadic;
};

static const struct exec_function functions[ROI_EXEC_WRAPPERS] = {
  { "fork", "__roi_fork", 0, false },
  { "execl", "__roi_execl", 2, true },
  { "execle", "__roi_execle", 2, true },
  { "execlp", "__roi_execlp", 2, true },
  { "execv", "__roi_execv", 2, false },
  { "execve", "__roi_execve", 3, false },
  { "execvp", "__roi_execvp", 2, false },
  { "execvpe", "__roi_execvpe", 3, false },
  { "fexecve", "__roi_fexecve", 3, false },
  { "__gcov_fork", "__roi_gcov_fork", 0, false },
  { "__gcov_execl", "__roi_gcov_execl", 2, true },
  { "__gcov_execle", "__roi_gcov_execle", 2, true },
  { "__gcov_execlp", "__roi_gcov_execlp", 2, true },
  { "__gcov_execv", "__roi_gcov_execv", 2, false },
  { "__gcov_execve", "__roi_gcov_execve", 3, false },
  { "__gcov_execvp", "__roi_gcov_execvp", 2, false },
};

static bool unit_registers;

void
roi_exec_unit_registers (void)
{
  unit_registers = roi_opts.runtime == ROI_RUNTIME_HOST && !roi_opts.disabled
		   && !roi_opts.block_lines;
}

/* Which of the functions SYM names: one declared with its prototype and
   defined elsewhere; or -1.  */
static int
exec_function_of (const_rtx sym)
{
  tree decl = SYMBOL_REF_DECL (sym);
  if (!decl || TREE_CODE (decl) != FUNCTION_DECL || !TREE_PUBLIC (decl)
      || !DECL_EXTERNAL (decl) || !prototype_p (TREE_TYPE (decl)))
    return -1;
  const char *name = targetm.strip_name_encoding (XSTR (sym, 0));
  for (int i = 0; i < ROI_EXEC_WRAPPERS; i++)
    if (!strcmp (name, functions[i].name)
	&& type_num_arguments (TREE_TYPE (decl)) == functions[i].nargs
	&& (bool) stdarg_p (TREE_TYPE (decl)) == functions[i].variadic)
      return i;
  return -1;
}

/* The symbol of function I's wrapper, to call where OLD was called.  */
static rtx
wrapper_symbol (int i, rtx old)
{
  tree *decl = &roi_gc[ROI_GC_EXEC + i];
  if (!*decl)
    {
      tree callee = SYMBOL_REF_DECL (old);
      *decl = build_fn_decl (functions[i].wrapper, TREE_TYPE (callee));
      /* Not a name for the C++ front end to mangle.  */
      SET_DECL_ASSEMBLER_NAME (*decl, get_identifier (functions[i].wrapper));
      TREE_NOTHROW (*decl) = TREE_NOTHROW (callee);
    }
  rtx sym = gen_rtx_SYMBOL_REF (GET_MODE (old),
				IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (*decl)));
  SYMBOL_REF_FLAGS (sym) = SYMBOL_REF_FLAGS (old);
  SET_SYMBOL_REF_DECL (sym, *decl);
  return sym;
}

/* The address INSN calls, if it is a call: a symbol, or a symbol's slot in
   the GOT (-fno-plt).  */
static rtx *
call_address (rtx_insn *insn)
{
  rtx call = CALL_P (insn) ? get_call_rtx_from (insn) : NULL_RTX;
  return call && MEM_P (XEXP (call, 0)) ? &XEXP (XEXP (call, 0), 0) : NULL;
}

/* The symbol in ADDRESS that names one of the functions, and which; or
   NULL_RTX.  */
static rtx
exec_symbol (rtx address, int *which)
{
  subrtx_iterator::array_type array;
  FOR_EACH_SUBRTX (iter, array, address, ALL)
    if (GET_CODE (*iter) == SYMBOL_REF && (*which = exec_function_of (*iter)) >= 0)
      return CONST_CAST_RTX (*iter);
  return NULL_RTX;
}

static bool
calls_vfork (void)
{
  for (rtx_insn *insn = get_insns (); insn; insn = NEXT_INSN (insn))
    {
      rtx *address = call_address (insn);
      subrtx_iterator::array_type array;
      if (address)
	FOR_EACH_SUBRTX (iter, array, *address, ALL)
	  if (GET_CODE (*iter) == SYMBOL_REF
	      && !strcmp (targetm.strip_name_encoding (XSTR (*iter, 0)), "vfork"))
	    return true;
    }
  return false;
}

static unsigned int
roi_exec_execute (function *)
{
  if (!unit_registers)
    return 0;
  if (calls_vfork ())
    {
      if (roi_opts.verbose)
	inform (DECL_SOURCE_LOCATION (current_function_decl),
		"roi: %qD calls %<vfork%>: its calls of fork and exec are "
		"not redirected to libroi", current_function_decl);
      return 0;
    }
  for (rtx_insn *insn = get_insns (); insn; insn = NEXT_INSN (insn))
    {
      rtx *address = call_address (insn), old;
      int which;
      if (!address || !(old = exec_symbol (*address, &which)))
	continue;
      /* The GOT slot's constant may be shared with other insns.  */
      *address = copy_rtx (*address);
      subrtx_ptr_iterator::array_type array;
      FOR_EACH_SUBRTX_PTR (iter, array, address, ALL)
	if (**iter == old)
	  **iter = wrapper_symbol (which, old);
    }
  return 0;
}

#define PASS_NAME roi_exec
#define PASS_TYPE RTL_PASS
#include "roi-generate-pass.h"
