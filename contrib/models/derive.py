#!/usr/bin/env python3
"""derive.py - derive roi's first cost models from compiler output and manual timings.

For every (kind, type[, access|from]) the roi plugin produces, a tiny C snippet
isolates the operation between two inline-asm markers; the target compiler
compiles all snippets at -O0 (-S and linked; --opt Os or O2: at that level, for
the AVR part, the prior of the optimised calibrations: base-model.sh).  The
instructions between the markers are the operation's instructions (the
difference against the same function without the statement); their cycles
come from a timing table typed in from the AVR Instruction Set Manual / the
Cortex-M4 TRM.  A call into a library
routine (soft float, AVR 32-bit division...) is measured on AVR: the snippet runs
in simavr over typical operands, once with the routine and once with a bare ret
in its place. Elsewhere it is costed by walking the linked routine's disassembly
along its typical path (forward branches not taken unless TYPICAL says
otherwise, loops iterated as TYPICAL says).

At -O0 named locals live in stack slots, and roi counts each read and write of
one as an operation of its own (load/store, access "frame"): an operation's
entry is its instructions without that frame traffic, and the frame entries are
the stack-slot reads and writes of a move.

  contrib/models/derive.py [--arch avr|arm] [--out DIR] [--trace SYMBOL] [--keep DIR]
"""
import argparse, collections, json, os, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..'))
INTS = ['i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64']
ARM_FLAGS = ['-mcpu=cortex-m4', '-mthumb', '-mfloat-abi=hard', '-mfpu=fpv4-sp-d16']

TARGETS = {
    'avr': dict(
        file='atmega32u4.json', part='ATmega32U4', core='AVR8 (avr5), 16-bit PC', cmt=';',
        cc=['avr-gcc', '-mmcu=atmega32u4', '-O0', '-w'],
        link=['-Wl,--defsym=__TEXT_REGION_LENGTH__=1M'], tools='avr-',
        compiler='avr-gcc 5.4.0', flags='-mmcu=atmega32u4 -O0', clock=16e6, supply=5.0,
        current=20e-3, native='i16', floats=['f32'],
        ctypes=dict(i8='signed char', u8='unsigned char', i16='int', u16='unsigned int', i32='long',
                    u32='unsigned long', i64='long long', u64='unsigned long long', f32='float', ptr='ptr_t'),
        abi={"char": 8, "short": 16, "int": 16, "long": 32, "long long": 64, "pointer": 16,
             "float": 32, "double": 32, "long double": 32, "char_signed": True},
        energy_source=("Atmel ATmega16U4/ATmega32U4 datasheet 7766F-AVR-11/10, Electrical Characteristics, "
                       "DC Characteristics table, row ICC 'Power Supply Current, Active 8MHz, VCC = 5V' (page 379): "
                       "the datasheet's typical value, 10 mA (max 15 mA). The table has no 16 MHz row: the typical "
                       "current is scaled linearly with the clock to 20 mA at 16 MHz (active current is dominated by "
                       "switching, so energy per cycle is the same as at 8 MHz): 5 V x 20 mA / 16 MHz = 6.25 nJ per "
                       "cycle. Not checked against the datasheet's 'Active Supply Current vs. Frequency' figure.")),
    'arm': dict(
        file='stm32f401re.json', part='STM32F401RE', core='ARM Cortex-M4F (ARMv7E-M, FPv4-SP)', cmt='@',
        cc=['arm-none-eabi-gcc'] + ARM_FLAGS + ['-O0', '-w'], link=['--specs=nosys.specs'],
        tools='arm-none-eabi-', compiler='arm-none-eabi-gcc 12.2.1',
        flags=' '.join(ARM_FLAGS) + ' -O0', clock=84e6, supply=3.3, current=128e-6 * 84,
        native='i32', floats=['f32', 'f64'],
        ctypes=dict(i8='signed char', u8='unsigned char', i16='short', u16='unsigned short', i32='int',
                    u32='unsigned int', i64='long long', u64='unsigned long long', f32='float', f64='double',
                    ptr='ptr_t'),
        abi={"char": 8, "short": 16, "int": 32, "long": 32, "long long": 64, "pointer": 32,
             "float": 32, "double": 64, "long double": 64, "char_signed": False},
        energy_source=("STMicroelectronics STM32F401xD/xE datasheet DocID025644, page 1 (Features): run-mode current "
                       "128 uA/MHz running from Flash (peripherals off), the datasheet's typical value: 10.75 mA at "
                       "84 MHz, VDD 3.3 V: 3.3 V x 10.75 mA / 84 MHz = 0.42 nJ per cycle. The 84 MHz row of the "
                       "Run-mode current table in section 6.3.6 (Supply current characteristics) was not checked; "
                       "with all peripherals enabled the current is higher.")),
}

# ---- timing tables -----------------------------------------------------------------------------
# AVR Instruction Set Manual, cycle column for a 16-bit-PC device (ATmega32U4: 32 KiB flash).
AVR_CYC = {}
for _m in ('add adc sub subi sbc sbci and andi or ori eor com neg sbr cbr inc dec tst clr ser mov movw ldi '
           'cp cpc cpi lsl lsr rol ror asr swap bst bld sec clc sen cln sez clz sei cli ses cls sev clv set '
           'clt seh clh bset bclr nop in out wdr sleep').split():
    AVR_CYC[_m] = 1
for _m in 'adiw sbiw mul muls mulsu fmul fmuls fmulsu ld ldd lds st std sts push pop rjmp ijmp cbi sbi'.split():
    AVR_CYC[_m] = 2
for _m in 'rcall icall jmp lpm elpm'.split():
    AVR_CYC[_m] = 3
for _m in 'call ret reti'.split():
    AVR_CYC[_m] = 4
AVR_BR = (1, 2)          # brXX not taken / taken
AVR_SKIP = (1, 2)        # cpse sbrc sbrs sbic sbis: no skip / skip of a one-word instruction

# Cortex-M4 TRM r0p1 Table 3-1 "Cortex-M4 instruction set summary" and the FPU TRM's FPU instruction
# table.  P (pipeline refill, 1..3) is taken as 2; SDIV/UDIV (2..12, early termination) as 7.
P = 2
ARM_ONE = set(('mov mvn movw movt add addw adc sub subw sbc rsb and orr orn eor bic lsl lsr asr ror rrx cmp cmn '
               'tst teq mul mla mls umull smull umlal smlal sxtb sxth uxtb uxth sxtab sxtah uxtab uxtah ubfx sbfx '
               'bfi bfc clz rbit rev rev16 revsh adr neg nop it cpsid cpsie dmb dsb isb ssat usat '
               'smulbb smulbt smultb smultt smlabb smlabt smlatb smlatt smulwb smulwt smlawb smlawt umaal '
               'smmul smmla smlad smuad uadd8 usub8 sel qadd qsub '
               'pld').split())        # (pld: a preload hint; the M4 has no data cache, it loads nothing)
ARM_CONDS = 'eq ne cs hs cc lo mi pl vs vc hi ls ge lt gt le al'.split()
ARM_BR = (1, 1 + P)      # b<cond>, cbz, cbnz: not taken / taken
ARM_LOADS = ('ldr', 'ldrb', 'ldrh', 'ldrsb', 'ldrsh')
ARM_STORES = ('str', 'strb', 'strh')


def arm_base(m):
    """Mnemonic without width qualifier, flag-setting 's' and condition: ('adds.w' -> 'add', cond)."""
    m = re.sub(r'\.(n|w)$', '', m)
    if re.fullmatch(r'it[te]{0,3}', m):
        return 'it', None
    cands = [(m, None)]
    if len(m) > 2 and m[-2:] in ARM_CONDS:
        cands.append((m[:-2], m[-2:]))
    known = lambda x: x in ARM_ONE or x in ARM_LOADS or x in ARM_STORES or x in (
        'ldrd', 'strd', 'ldm', 'ldmia', 'ldmdb', 'stm', 'stmia', 'stmdb', 'push', 'pop', 'sdiv', 'udiv',
        'tbb', 'tbh', 'b', 'bl', 'blx', 'bx', 'cbz', 'cbnz')
    for b, c in cands:                        # exact or with a condition, then flag-setting 's'
        if known(b):
            return b, c
    for b, c in cands:
        if b.endswith('s') and known(b[:-1]):
            return b[:-1], c
    return m, None


def nregs(ops):
    lst = re.search(r'\{([^}]*)\}', ops)
    n = 0
    for part in (lst.group(1).split(',') if lst else []):
        r = re.findall(r'\d+', part)
        n += int(r[1]) - int(r[0]) + 1 if '-' in part and len(r) == 2 else 1
    return n


def arm_cycles(m, ops, prev_load):
    """Cycles of a non-branch ARM instruction; prev_load: the previous instruction was a single load."""
    if m.startswith('v'):
        b = m.split('.')[0]
        if b in ('vdiv', 'vsqrt'):
            return 14
        if b in ('vmla', 'vmls', 'vnmla', 'vnmls', 'vfma', 'vfms', 'vfnma', 'vfnms'):
            return 3
        if b in ('vldr', 'vstr'):
            return 3 if ('.64' in m or re.match(r'\s*d\d', ops)) else 2
        if b in ('vpush', 'vpop', 'vldm', 'vstm', 'vldmia', 'vstmia', 'vstmdb'):
            return 1 + nregs(ops) * (2 if re.search(r'\{\s*d', ops) else 1)
        if b == 'vmov' and len(ops.split(',')) == 3:
            return 2
        return 1
    b, _ = arm_base(m)
    if b in ARM_ONE:
        return 1
    if b in ARM_LOADS or b in ARM_STORES:
        return 1 if prev_load else 2
    if b in ('ldrd', 'strd'):
        return 3
    if b in ('ldm', 'ldmia', 'ldmdb', 'stm', 'stmia', 'stmdb', 'push', 'pop'):
        return 1 + nregs(ops)
    if b in ('sdiv', 'udiv'):
        return 7
    raise KeyError(m)


def classify(arch, m, ops):
    """-> (class, target): op, cbr (conditional branch), jmp, call, ret, cret (conditional return),
    ijmp (indirect jump), skip (AVR skip)."""
    tgt = None
    if arch == 'avr':
        t = re.search(r';\s*0x([0-9a-f]+)', ops)
        tgt = int(t.group(1), 16) if t else (ops.strip() if re.fullmatch(r'[.\w]+', ops.strip()) else None)
        if m in ('rjmp', 'jmp'):
            return 'jmp', tgt
        if m in ('rcall', 'call'):
            return ('op', None) if ops.split(';')[0].strip() in ('.', '.+0') else ('call', tgt)
        if m in ('ret', 'reti'):
            return 'ret', None
        if m == 'ijmp':
            return 'ijmp', None
        if m.startswith('br'):
            return 'cbr', tgt
        if m in ('cpse', 'sbrc', 'sbrs', 'sbic', 'sbis'):
            return 'skip', None
        return 'op', None
    t = re.search(r'(?:^|,)\s*([0-9a-f]+)\s+<[^>]*>\s*$', ops)
    last = ops.split(',')[-1].strip()
    tgt = int(t.group(1), 16) if t else (
        last if re.fullmatch(r'[.\w]+', last) and not re.fullmatch(r'r\d+|lr|pc|sp|ip|fp', last) else None)
    b, c = arm_base(m)
    if b in ('bl', 'blx'):
        return (('ccall' if c else 'call'), tgt) if tgt is not None else ('op', None)
    if b == 'bx':
        return ('cret' if c else 'ret'), None
    if b == 'b':
        return ('cbr' if c else 'jmp'), tgt
    if b in ('cbz', 'cbnz'):
        return 'cbr', tgt
    if b in ('pop', 'ldm', 'ldmia') and re.search(r'\bpc\b', ops):
        return ('cret' if c else 'ret'), None
    if b == 'ldr' and re.match(r'\s*pc\b', ops):
        return ('ret', None) if re.search(r'\[sp\],', ops) else ('ijmp', None)
    if b in ('tbb', 'tbh'):
        return 'ijmp', None
    return 'op', None


def cost(arch, m, ops, cls, prev_load, taken=None):
    """Cycles of one instruction; taken None means the average of taken and not taken."""
    if arch == 'avr':
        if cls in ('cbr', 'skip'):
            nt, tk = AVR_BR if cls == 'cbr' else AVR_SKIP
            return (nt + tk) / 2 if taken is None else (tk if taken else nt)
        if m not in AVR_CYC:
            raise KeyError(m)
        return AVR_CYC[m]
    if cls in ('cbr', 'cret', 'ccall'):
        nt, tk = (1, 1 + P) if cls != 'cret' or m.startswith('bx') else (1, 1 + nregs(ops) + P)
        return (nt + tk) / 2 if taken is None else (tk if taken else nt)
    if cls in ('jmp', 'call'):
        return 1 + P
    if cls == 'ret':
        b = arm_base(m)[0]
        return 1 + P if b == 'bx' else 2 + P if b == 'ldr' else 1 + nregs(ops) + P
    if cls == 'ijmp':
        return 2 + P
    return arm_cycles(m, ops, prev_load)


def avr_saved(reg):
    """Whether an AVR push or pop operand is a callee-saved register (r2-r17, r28, r29), not a
    stack slot made or freed with __tmp_reg__."""
    mm = re.match(r'r(\d+)$', reg.strip())
    return bool(mm) and (2 <= int(mm.group(1)) <= 17 or int(mm.group(1)) in (28, 29))


def is_frame_setup(arch, m, ops):
    """Whether a prologue or epilogue instruction allocates or releases the stack frame or sets the
    frame pointer: AVR's rcall . (two bytes), push __zero_reg__ (one) and pops into __tmp_reg__ for
    small frames, the stack pointer (0x3d, 0x3e) moved with SREG (0x3f) saved around cli for large
    ones; ARM's sub/add sp and r7."""
    if arch == 'avr':
        return ((m == 'rcall' and ops.strip() in ('.', '.+0')) or
                (m in ('push', 'pop') and not avr_saved(ops)) or m in ('in', 'out', 'cli', 'sbiw', 'adiw'))
    return not m.startswith(('ldr', 'str', 'push', 'pop')) and ('sp' in ops or ops.startswith('r7'))


def saved_count(arch, ins):
    """The registers a prologue's pushes save: the callee-saved ones an AVR push saves, the list of
    an ARM push (without lr, which the call's own return needs; roi counts the callee-saved
    registers)."""
    if arch == 'avr':
        return sum(1 for m, o in ins if m == 'push' and avr_saved(o))
    return sum(len([r for r in o.strip('{}').split(',') if r.strip() != 'lr']) for m, o in ins if m == 'push')


def is_load(arch, m):
    return arch == 'arm' and arm_base(m)[0] in ARM_LOADS


def frame_access(arch, m, ops):
    """'r' or 'w' when the instruction reads or writes a named local's stack slot."""
    if arch == 'avr':
        if m in ('ldd', 'ld') and re.fullmatch(r'r\d+\s*,\s*Y(\+\d+)?', ops.strip()):
            return 'r'
        if m in ('std', 'st') and re.match(r'\s*Y(\+\d+)?\s*,', ops):
            return 'w'
        return None
    b = arm_base(m)[0] if not m.startswith('v') else m.split('.')[0]
    if '[r7' in ops.replace(' ', ''):
        if b in ARM_LOADS or b in ('ldrd', 'vldr'):
            return 'r'
        if b in ARM_STORES or b in ('strd', 'vstr'):
            return 'w'
    return None


# ---- typical paths of library routines ---------------------------------------------------------
# The walk follows a routine from its entry: forward conditional branches (and skips, conditional
# returns) are not taken, a backward conditional branch is taken while it has been visited fewer
# than N times (N = iterations of the loop), and a forward branch visited more than N times is taken
# (the exit of a loop closed by an unconditional jump).  N is iters[branch site], else
# iters[routine], else 1.  taken
# lists forward branches on the typical path, by "symbol+0xOFF" in the linked routine, taken from
# their k-th visit on.  Sites are toolchain-version specific: unused ones are reported.
NEVER = 10 ** 9
TYPICAL = {
    # avr-libc 2.0 libm (float) and libgcc 5.4.0 (integer): operands non-negative, normal floats of
    # different magnitude (exponents 2 apart), division and multiplication loops run once per bit.
    'avr': dict(
        iters={'__udivmodqi4': 9, '__udivmodhi4': 17, '__udivmodsi4': 33, '__addsf3x': 2,
               '__divsf3_pse+0xa4': 8,
               # 64-bit division: 4 leading zero bytes skipped, then 32 bit steps
               '__udivmod64+0x1e': 4, '__udivmod64+0x40': 8, '__udivmod64+0x92': 32},
        taken={'__divmodhi4+0x4': 1, '__divmodhi4+0xa': 1, '__divmodhi4+0x12': 1, '__divmodhi4+0x16': 1,
               '__divmodsi4+0x4': 1, '__divmodsi4+0xc': 1, '__divmodsi4+0x14': 1, '__divmodsi4+0x18': 1,
               '__addsf3x+0x14': 1, '__addsf3x+0x3c': 1, '__addsf3x+0x60': 1, '__addsf3x+0x88': 1,
               '__addsf3x+0x9e': 1, '__fp_round+0x6': 1, '__fp_round+0xe': 1, '__fp_cmp+0x28': 1,
               '__addsf3x+0x6': NEVER, '__mulsf3_pse+0x7e': 1, '__divsf3_pse+0x66': 1, '__fixsfsi+0x6': 1}),
    # libgcc 12.2.1 (ieee754-df.S, bpabi.S, C __udivmoddi4): normal numbers, non-negative operands,
    # 64-bit division of a 64-bit dividend by a 32-bit divisor.
    'arm': dict(
        iters={},
        taken={'__aeabi_f2d+0x1c': 1, '__aeabi_uldivmod+0x2': 1, '__aeabi_ldivmod+0x2': 1}),
}


class Lib:
    """The linked ELF's disassembly: instructions by address, symbols."""

    def __init__(self, arch, elf, tools):
        self.arch, self.ins, self.order, self.syms, self.names = arch, {}, [], {}, []
        for line in run([tools + 'nm', elf]).splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in 'TtWw' and not p[2].startswith('$'):
                self.syms.setdefault(p[2], int(p[0], 16))
                self.names.append((int(p[0], 16), p[2]))
        self.names.sort()
        for line in run([tools + 'objdump', '-d', '--no-show-raw-insn', elf]).splitlines():
            mm = re.match(r'\s+([0-9a-f]+):\s+([a-z][\w.]*)\s*(.*)$', line)
            if mm and not mm.group(2).startswith('.'):
                a = int(mm.group(1), 16)
                self.ins[a] = (mm.group(2), mm.group(3).split('@')[0].strip() if arch == 'arm' else mm.group(3))
                self.order.append(a)
        self.order.sort()
        self.idx = {a: i for i, a in enumerate(self.order)}

    def name(self, addr):
        best = None
        for a, n in self.names:       # at one address prefer __name, then any name not starting with '.'
            if a > addr:
                break
            if best is None or a > best[0] or (n.startswith('__'), not n.startswith('.')) > (
                    best[1].startswith('__'), not best[1].startswith('.')):
                best = (a, n)
        return best[1] if addr == best[0] else '%s+0x%x' % (best[1], addr - best[0])

    def next(self, addr, k=1):
        return self.order[self.idx[addr] + k]

    def walk(self, start, trace=False, depth=0, used=None, to_ijmp=False):
        """Cycles of the routine at START (a symbol or an address) along its typical path;
        TO_IJMP: a jump table's dispatch (__tablejump2__), up to and with its indirect jump."""
        conf = TYPICAL[self.arch]
        used = used if used is not None else set()
        pc = self.syms[start] if isinstance(start, str) else start
        routine = self.name(pc)
        n = conf['iters'].get(routine, 1)
        if routine in conf['iters']:
            used.add(routine)
        cyc, visits, prev_load = 0.0, collections.Counter(), False
        for _ in range(100000):
            m, ops = self.ins[pc]
            cls, tgt = classify(self.arch, m, ops)
            site = self.name(pc)
            visits[pc] += 1
            taken = None
            if cls in ('cbr', 'skip', 'cret', 'ccall'):
                if site in conf['taken']:
                    used.add(site)
                    taken = visits[pc] >= conf['taken'][site]
                elif cls == 'cbr' and tgt <= pc:
                    taken = visits[pc] < conf['iters'].get(site, n)
                else:
                    taken = visits[pc] > conf['iters'].get(site, n)
                if site in conf['iters']:
                    used.add(site)
            c = cost(self.arch, m, ops, cls, prev_load, taken)
            prev_load = is_load(self.arch, m) and cls == 'op'
            if trace:
                print('%s%-24s %-8s %-28s %4.1f%s' % ('  ' * depth, site, m, ops.split(';')[0][:28], c,
                                                      ' taken' if taken else ''))
            cyc += c
            if cls == 'call' or (cls == 'ccall' and taken):
                cyc += self.walk(tgt, trace, depth + 1, used)
            if cls == 'ret' or (cls == 'cret' and taken):
                return cyc
            if cls == 'ijmp' and to_ijmp:
                return cyc
            if cls == 'ijmp':
                raise SystemExit('derive: indirect jump in %s at %s: no typical path' % (routine, site))
            if cls == 'jmp' or (cls == 'cbr' and taken):
                pc = tgt
            elif cls == 'skip' and taken:
                pc = self.next(pc, 2)
            else:
                pc = self.next(pc)
        raise SystemExit('derive: %s: no return within 100000 steps' % routine)


# ---- snippets ---------------------------------------------------------------------------------
OPS = dict(add='+', sub='-', mul='*', div='/', mod='%', **{'and': '&', 'or': '|', 'xor': '^'},
           shl='<<', shr='>>', eq='==', ne='!=', lt='<', le='<=', gt='>', ge='>=')
COMPARISONS = ('eq', 'ne', 'lt', 'le', 'gt', 'ge')
# frames smaller than this many bytes have their size as the operand of "frame" (estimator/input/meta.c)
SMALL_FRAME = 8


def snippets(t):
    """-> list of (match dict, [C bodies, averaged])."""
    ct, nat, fl = t['ctypes'], t['native'], t['floats']
    ty = INTS + fl
    out = []

    def add(match, bodies):
        out.append((match, bodies))

    for k in ('add', 'sub', 'mul', 'div', 'mod', 'and', 'or', 'xor', 'shl', 'shr', 'neg', 'not'):
        for x in (ty if k in ('add', 'sub', 'mul', 'div', 'neg') else INTS):
            T = ct[x]
            if k in ('neg', 'not'):
                body = '%s a = gv_%s, r; M(b); r = %sa; M(e); gv_%s = r;' % (T, x, '-' if k == 'neg' else '~', x)
                add(dict(kind=k, type=x), [body])
            elif k in ('shl', 'shr'):
                # by a run-time amount: the loop's turns are the "steps" entry (value counters)
                body = '%s a = gv_%s, r; unsigned char n = gv_u8; M(b); r = a %s n; M(e); gv_%s = r;' % (
                    T, x, OPS[k], x)
                add(dict(kind=k, type=x), [body])
            else:
                body = '%s a = gv_%s, b = gv_%s, r; M(b); r = a %s b; M(e); gv_%s = r;' % (T, x, x, OPS[k], x)
                add(dict(kind=k, type=x), [body])
    # a 64-bit rotate by a run-time amount: avr's __rotldi3, a right one by 64 - n (the passes are
    # the "steps" entry, as a 64-bit shift's). avr-gcc 5.4 at -O0 crashes on this right rotate
    # (cc1 segfaults), so none is measured there.
    for k, expr in (('rotl', 'a << n | a >> (64 - n)'), ('rotr', 'a >> n | a << (64 - n)')):
        if k == 'rotr' and t.get('opt', 'O0') == 'O0':
            continue
        add(dict(kind=k, type='u64'),
            ['%s a = gv_u64, r; unsigned char n = gv_u8; M(b); r = %s; M(e); gv_u64 = r;' % (ct['u64'], expr)])
    # a constant second operand: an immediate form, a shift and a negation for a negative power of
    # two ("pow2"; by a positive one the plugin counts the shift, or for a signed division or
    # remainder, below, the shift with its correction towards zero), a library division by a constant
    # (a multiply by a small constant is a few shifts and adds; from 32 bits, by one wider than half
    # the width, a hash's, the full-width library multiply: operand "wide"; below 32 bits every
    # constant is one hardware multiply, the mean of both)
    odd = {8: 0x25, 16: 0x6b43, 32: 0x5bd1e995, 64: 0x5851f42d4c957f2d}

    def by_const(T, x, k, c):
        return '%s a = gv_%s, r; M(b); r = a %s (%s) %#xull; M(e); gv_%s = r;' % (T, x, OPS[k], T, c, x)

    for k in ('mul', 'div', 'mod'):
        for x in INTS:
            T, bits = ct[x], int(x[1:])
            consts = [('pow2', [-8])] if x[0] == 'i' else []
            if k != 'mul':
                consts.append(('const', [10]))
            elif bits < 32:
                consts.append(('const', [10, odd[bits]]))
            else:
                consts += [('const', [10]), ('wide', [odd[bits]])]
            for operand, cs in consts:
                add(dict(kind=k, type=x, operand=operand), [by_const(T, x, k, c) for c in cs])
    # a signed division or remainder by 2^N (operand "N"): the shift by N or the mask of the low
    # bits, corrected towards zero for a negative dividend; a sequence of its own per amount, as
    # the shift's
    for x in INTS:
        if x[0] == 'i':
            T, bits = ct[x], int(x[1:])
            for n in range(1, bits - 1):        # 2^(bits-1) is not a positive constant of the type
                for k in ('div', 'mod'):
                    add(dict(kind=k, type=x, operand=str(n)), [by_const(T, x, k, 1 << n)])
    # a shift or rotate by a constant is a sequence of its own for every amount (operand "N"): a
    # byte move for 8, a loop of single-bit shifts or a swap-and-mask for others
    for x in INTS:
        T, bits = ct[x], int(x[1:])
        for n in range(1, bits):
            for k in ('shl', 'shr'):
                body = '%s a = gv_%s, r; M(b); r = a %s %d; M(e); gv_%s = r;' % (T, x, OPS[k], n, x)
                add(dict(kind=k, type=x, operand=str(n)), [body])
            if x[0] == 'u' and bits >= 16:      # GCC folds the idiom into a rotate from 16 bits up
                for k, l, rr in (('rotl', n, bits - n), ('rotr', bits - n, n)):
                    body = ('%s a = gv_%s, r; M(b); r = (%s) (a << %d) | (%s) (a >> %d); M(e); gv_%s = r;'
                            % (T, x, T, l, T, rr, x))
                    add(dict(kind=k, type=x, operand=str(n)), [body])
    # a quotient and a remainder of the same operands in one block: optimising, GCC computes both with
    # one library call (the plugin's operand "paired" on the second); at -O0 each is a call
    for x in INTS:
        T = ct[x]
        for k, first in (('mod', '/'), ('div', '%')):
            add(dict(kind=k, type=x, operand='paired'),
                ['%s a = gv_%s, b = gv_%s, q, r; q = a %s b; M(b); r = a %s b; M(e); gv_%s = q; gv_%s = r;'
                 % (T, x, x, first, OPS[k], x, x)])
    # a product of two extended halves: optimising, GCC multiplies in the half width with a
    # double-width result (the plugin's operand "widen": avr's __umulhisi3 for 16 x 16 -> 32)
    for x in INTS:
        bits = int(x[1:])
        if bits >= 16:
            h = ct['%s%d' % (x[0], bits // 2)]
            add(dict(kind='mul', type=x, operand='widen'),
                ['%s a = gv_%s%d, b = gv_%s%d; %s r; M(b); r = (%s) a * b; M(e); gv_%s = r;'
                 % (h, x[0], bits // 2, x[0], bits // 2, ct[x], ct[x], x)])
    # min, max and abs: GCC folds "a < b ? a : b" into MIN_EXPR and "a < 0 ? -a : a" into ABS_EXPR
    for x in INTS:
        T = ct[x]
        for k, op in (('min', '<'), ('max', '>')):
            add(dict(kind=k, type=x),
                ['%s a = gv_%s, b = gv_%s, r; M(b); r = a %s b ? a : b; M(e); gv_%s = r;' % (T, x, x, op, x)])
            add(dict(kind=k, type=x, operand='const'),
                ['%s a = gv_%s, r; M(b); r = a %s (%s) 10 ? a : (%s) 10; M(e); gv_%s = r;' % (T, x, op, T, T, x)])
        if x[0] == 'i':
            add(dict(kind='abs', type=x), ['%s a = gv_%s, r; M(b); r = a < 0 ? -a : a; M(e); gv_%s = r;' % (T, x, x)])
    for k in COMPARISONS:
        for x in ty + ['ptr']:
            T = ct[x]
            body = '%s a = gv_%s, b = gv_%s; M(b); if (a %s b) { M(e); gv_i16 = 1; }' % (T, x, x, OPS[k])
            add(dict(kind=k, type=x), [body])
    # a signed integer's sign test (operand "sign"): its top bit alone, whatever the width
    for k in ('lt', 'ge'):
        for x in INTS:
            if x[0] == 'i':
                add(dict(kind=k, type=x, operand='sign'),
                    ['%s a = gv_%s; M(b); if (a %s 0) { M(e); gv_i16 = 1; }' % (ct[x], x, OPS[k])])
    for x in ty + ['ptr']:
        for f in ty + ['ptr']:
            if x == f or (x == 'ptr' and f in fl) or (f == 'ptr' and x in fl):
                continue
            body = '%s a = gv_%s; %s r; M(b); r = (%s)a; M(e); gv_%s = r;' % (ct[f], f, ct[x], ct[x], x)
            add(dict(kind='conv', type=x, **{'from': f}), [body])
    for x in ty + ['ptr']:
        T = ct[x]
        add(dict(kind='move', type=x), ['%s a = gv_%s, r; M(b); r = a; M(e); gv_%s = r;' % (T, x, x)])
        pre = '%s r; int i = gv_i; struct s_%s *p = gp_%s; %s *q = ga_%s; ' % (T, x, x, T, x)
        post = ' gv_%s = r;' % x
        for acc, exprs in (('var', ['g_%s' % x]), ('array', ['ga_%s[i]' % x]),
                           ('field', ['gs_%s.y' % x, 'p->y']), ('deref', ['*q'])):
            add(dict(kind='load', type=x, access=acc), [pre + 'M(b); r = %s; M(e);' % e + post for e in exprs])
            add(dict(kind='store', type=x, access=acc),
                [pre + 'M(b); %s = (%s)5; M(e);' % (e, T) for e in exprs])
    add(dict(kind='addr', type='ptr'), ['ptr_t r; int i = gv_i; M(b); r = &g_i16; M(e); gv_ptr = r;',
                                        'ptr_t r; int i = gv_i; M(b); r = &ga_i16[i]; M(e); gv_ptr = r;'])
    add(dict(kind='ptradd', type='ptr'), ['ptr_t p = gv_ptr, q; M(b); q = p + 1; M(e); gv_ptr = q;'])
    # the memory routines by a run-time length: the routine's loop turns are the "bytes" entry
    for f in ('memcpy', 'memmove', 'memset', 'memcmp'):
        src = '(int) gv_u8' if f == 'memset' else 'gb_s'
        add(dict(kind='call', callee=f), ['M(b); gv_i = (int) (long) %s(gb_d, %s, gv_size); M(e);' % (f, src)])
    # strlen by the length it returns: the call reads the terminating byte, each byte before is a turn
    # (optimising, avr-gcc expands it to an inline loop of its own, which the plugin still counts as
    # the call and its bytes: the loop's turn is the byte)
    add(dict(kind='call', callee='strlen'), ['M(b); gv_i = (int) strlen((const char *) gb_s); M(e);'])
    return out


EXTRA = r'''
__attribute__((noinline)) int callee(int x) { M(p); int y = x; M(r); return y; }
void s_call(void) { int a = gv_i, r; M(b); r = callee(a); M(e); gv_i = r; }
#undef ROI_ID
#define ROI_ID "sw"
void s_switch(void) { int a = gv_i;
  M(b); switch (a) { case 0: M(c); gv_i = 3; break; case 1: M(c); gv_i = 5; break;
  case 2: M(c); gv_i = 7; break; case 3: M(c); gv_i = 9; break; case 4: M(c); gv_i = 1; break;
  default: M(c); gv_i = 2; } }
#undef ROI_ID
#define ROI_ID "swt"
void s_switch_table(void) { int a = gv_i;
  M(b); switch (a) { case 0: M(c); gv_i = 3; break; case 1: M(c); gv_i = 5; break;
  case 2: M(c); gv_i = 7; break; case 3: M(c); gv_i = 9; break; case 4: M(c); gv_i = 1; break;
  case 5: M(c); gv_i = 4; break; case 6: M(c); gv_i = 6; break; case 7: M(c); gv_i = 8; break;
  case 8: M(c); gv_i = 10; break; default: M(c); gv_i = 2; } }
int main(void) { return 0; }
'''


def c_source(t, snips):
    ct = t['ctypes']
    src = ['#include <string.h>', 'typedef int *ptr_t;', '#define M(x) __asm__ __volatile__("%s roi " #x "_" ROI_ID)' % t['cmt']]
    for x in INTS + t['floats'] + ['ptr']:
        src.append('volatile %s gv_%s; %s g_%s, ga_%s[8]; struct s_%s { %s x, y; } gs_%s, *gp_%s = &gs_%s;'
                   % ((ct[x], x) + (ct[x], x, x) + (x, ct[x], x, x, x)))
    src.append('volatile int gv_i; volatile unsigned gv_size; unsigned char gb_d[64], gb_s[64];')
    n = 0
    for s in snips:
        for body in s[1]:
            src.append('#define ROI_ID "%d"\nvoid s%d(void) { %s }\n#undef ROI_ID' % (n, n, body))
            n += 1
    src.append('#define ROI_ID "x"' + EXTRA)
    # functions whose frame holds n bytes: small frames cost by the byte on AVR (meta.c SMALL_FRAME)
    for n in range(1, SMALL_FRAME + 1):
        src.append('#undef ROI_ID\n#define ROI_ID "f%d"\n'
                   'void frame%d(void) { volatile char a[%d]; M(p); a[0] = 0; M(r); }' % (n, n, n))
    return '\n'.join(src) + '\n'


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, **kw)
    if r.returncode:
        raise SystemExit('derive: %s failed:\n%s' % (' '.join(cmd), r.stderr[-3000:]))
    return r.stdout


def parse_asm(arch, text):
    """-> list of items: ('mark', tag), ('label', name), ('ins', m, ops), ('func', name), ('end',), ('word', lbl)."""
    items = []
    for line in text.splitlines():
        mk = re.search(r'roi (\w+)_(\w+)', line)
        if mk:
            items.append(('mark', mk.group(1) + '_' + mk.group(2)))
            continue
        s = line.strip()
        if not s or s[0] in ';@' or s.startswith('/*'):
            continue
        if re.match(r'\.type\s+\w+,\s*[@%]function', s):
            items.append(('func', s.split()[1].rstrip(',')))
        elif s.startswith('.size'):
            items.append(('end',))
        elif re.match(r'\.word\s+(gs\()?\.L', s):     # gs(): AVR's word address of a jump table
            items.append(('word', re.search(r'\.L\w+', s).group(0)))
        elif re.fullmatch(r'[\w.$]+:', s):
            items.append(('label', s[:-1]))
        elif not s.startswith('.') and not re.match(r'\w+\s*=', s):
            p = s.split(None, 1)
            items.append(('ins', p[0].lower(), (p[1] if len(p) > 1 else '').split('@')[0].strip()))
    return items


class Target:
    def __init__(self, arch, tmp, trace=None):
        self.arch, self.t = arch, TARGETS[arch]
        self.snips = snippets(self.t)
        c = os.path.join(tmp, arch + '.c')
        self.source = c_source(self.t, self.snips)
        self.operands = typical_operands(self.t)
        with open(c, 'w') as f:
            f.write(self.source)
        self.items = parse_asm(arch, run(self.t['cc'] + ['-S', c, '-o', '-']))
        elf = os.path.join(tmp, arch + '.elf')
        run(self.t['cc'] + [c, '-o', elf] + self.t['link'])
        self.lib = Lib(arch, elf, self.t['tools'])
        self.routines, self.turns, self.used = {}, {}, set()
        if trace:
            print('%.1f cycles' % self.lib.walk(trace, trace=True))
            raise SystemExit(0)

    def routine(self, sym):
        if sym not in self.routines:
            self.routines[sym] = self.lib.walk(sym, used=self.used)
        return self.routines[sym]

    def seq_cost(self, ins):
        """(core, frame reads, frame writes, library calls, steps, turns) of a linear instruction
        sequence. steps: the cycles of one more turn of an inline loop whose count is a run-time
        value (a shift by a variable amount), left out of core; turns: what one more turn of the
        called routines' loops adds (a byte of memcpy), included in core."""
        core = fr = fw = steps = turns = 0.0
        calls, prev_load, at_label = [], False, {}
        for i, (m, ops) in enumerate(ins):
            if m == ':':
                at_label[ops] = (i, core)
                continue
            cls, tgt = classify(self.arch, m, ops)
            c = cost(self.arch, m, ops, cls, prev_load)
            loop = re.fullmatch(r'(\d+)b', ops.strip()) if cls == 'cbr' else None
            if loop and loop.group(1) in at_label:
                # avr-gcc's counted loop (a shift by a constant amount): "ldi rN,K; 1: ...; dec rN;
                # brne 1b" runs its body K times, the branch taken K - 1 times
                start, core0 = at_label[loop.group(1)]
                n = self.loop_count(ins, start, i)
                taken, not_taken = (cost(self.arch, m, ops, cls, False, t) for t in (True, False))
                if n is None:
                    # "rjmp 2f; 1: <shift>; 2: dec rN; brpl 1b": the shift and a taken branch per
                    # step, the test once more with the branch not taken
                    body = core - core0
                    test = cost(self.arch, *ins[i - 1], classify(self.arch, *ins[i - 1])[0], False)
                    steps += body + taken
                    core = core0 + test
                    c = not_taken
                else:
                    core += (n - 1) * (core - core0)
                    c = (n - 1) * taken + not_taken
            prev_load = is_load(self.arch, m) and cls == 'op'
            fa = frame_access(self.arch, m, ops)
            if fa == 'r':
                fr += c
            elif fa == 'w':
                fw += c
            else:
                core += c
            if cls == 'call' and tgt:
                sym = tgt.split('(')[0] if isinstance(tgt, str) else self.lib.name(tgt)
                if sym in self.lib.syms and sym != 'callee':        # the call snippet's own callee
                    core += self.routine(sym)
                    turns += self.per_iteration(sym)
                    calls.append(sym)
        return core, fr, fw, calls, steps, turns

    def per_iteration(self, sym):
        """The cycles one more turn of a routine's loops adds to its typical path: what a byte of
        memcpy or a bit of a 64-bit shift costs. 0 for a routine without a loop."""
        if sym not in self.turns:
            iters = TYPICAL[self.arch]['iters']
            if sym in iters:            # a loop count fixed by the operands' width (division)
                self.turns[sym] = 0.0
            else:
                try:
                    iters[sym] = 2
                    two = self.lib.walk(sym, used=set())
                finally:
                    del iters[sym]
                self.turns[sym] = two - self.routine(sym)
        return self.turns[sym]

    @staticmethod
    def loop_count(ins, label, branch):
        """K of a counted loop from ins[label] to the branch at ins[branch]: the constant loaded into
        the register the instruction before the branch decrements."""
        m, ops = ins[branch - 1]
        reg = ops.strip()
        if m not in ('dec', 'lsr'):
            return None                 # until its data says stop (strlen's zero byte): run-time
        for m2, ops2 in reversed(ins[:label]):
            if m2 == 'rjmp' and re.fullmatch(r'\d+f', ops2.strip()):
                return None             # entered at its test: a run-time count
            arg = ops2.split(',')
            if m == 'dec' and m2 == 'ldi' and arg[0].strip() == reg:
                k = int(arg[1].strip(), 0)
                return k if k > 0 else 256
            # "set; bld __zero_reg__,K-1; 1: ...; lsr __zero_reg__; brne 1b": one bit shifted out
            if m == 'lsr' and m2 == 'bld' and arg[0].strip() == reg and re.fullmatch(r'[\d+-]+', arg[1].strip()):
                return eval(arg[1].strip()) + 1
        raise SystemExit('derive: no count for the loop %s' % ins[label:branch + 1])

    def region(self, tag_b, tag_e=None, start=None):
        """Instructions between marker tag_b (or item index start) and tag_e (or function end)."""
        i = start if start is not None else [k for k, it in enumerate(self.items) if it == ('mark', tag_b)][0] + 1
        ins = []
        while i < len(self.items):
            it = self.items[i]
            if (tag_e and it == ('mark', tag_e)) or (not tag_e and it[0] == 'end'):
                return ins
            if it[0] == 'ins':
                ins.append(it[1:])
            elif it[0] == 'label' and it[1].isdigit():      # a local label: a loop of the sequence
                ins.append((':', it[1]))
            i += 1
        raise SystemExit('derive: unterminated region ' + tag_b)

    def after_words(self, i, words):
        """The item WORDS one-word instructions after the instruction at I."""
        k = i + 1
        while words:
            if self.items[k][0] == 'ins':
                words -= 1
            k += 1
        return k

    def switch_paths(self, sid='sw'):
        """Average dispatch cost over the switch's cases (default included), following its branches
        and its jump table."""
        start = self.items.index(('mark', 'b_' + sid)) + 1
        labels = {it[1]: k for k, it in enumerate(self.items) if it[0] == 'label'}
        costs = []

        def go(i, acc, fr, depth):
            if depth > 40:
                return
            while True:
                it = self.items[i]
                if it == ('mark', 'c_' + sid):
                    costs.append((acc, fr))
                    return
                if it[0] == 'ins':
                    m, ops = it[1:]
                    cls, tgt = classify(self.arch, m, ops)
                    if cls == 'cbr':
                        # "brsh .+2; rjmp .L3": the long form of a branch skips one word
                        rel = re.fullmatch(r'\.\+(\d+)', ops.split(';')[0].strip())
                        to = labels[tgt] if not rel else self.after_words(i, int(rel.group(1)) // 2)
                        go(to, acc + cost(self.arch, m, ops, cls, False, True), fr, depth + 1)
                        acc += cost(self.arch, m, ops, cls, False, False)
                    elif cls == 'jmp' and tgt in labels:
                        acc += cost(self.arch, m, ops, cls, False)
                        i = labels[tgt]
                        continue
                    elif cls in ('jmp', 'ijmp'):
                        # an indirect jump through the table that follows, or a jump to the
                        # library's table jump (AVR: __tablejump2__ reads the table in flash)
                        acc += cost(self.arch, m, ops, cls, False)
                        if cls == 'jmp':
                            acc += self.lib.walk(tgt, to_ijmp=True)
                        k = i + 1
                        while self.items[k][0] in ('word', 'label'):
                            if self.items[k][0] == 'word':
                                go(labels[self.items[k][1]], acc, fr, depth + 1)
                            k += 1
                        return
                    else:
                        c = cost(self.arch, m, ops, cls, False)
                        if frame_access(self.arch, m, ops) == 'r':
                            fr += c
                        else:
                            acc += c
                i += 1
        go(start, 0.0, 0.0, 0)
        return sum(c for c, _ in costs) / len(costs), sum(f for _, f in costs) / len(costs), len(costs)


# ---- library routines measured in simavr ----------------------------------------------------
# A routine whose path depends on its operands (float normalisation, a shift's amount, the bits of a
# multiplier) is priced by running it: each snippet that calls one runs 16 times over typical
# operands in simavr, once as built and once with its routines replaced by a bare "ret"; the
# difference per run, plus the stub's ret, is what the routines cost. The walk's typical path
# stays for ARM (QEMU counts instructions, not cycles), for the memory routines (their cost is
# per byte: the "bytes" entry) and for shifts by a run-time amount (per bit: "steps").
RUNS = 16


def typical_operands(t):
    """16 values per type, fixed: integers of their full range (signed ones of both signs, none 0:
    they are divisors too), floats of both signs between 0.01 and 1000."""
    import random
    rnd, tab = random.Random(20261125), {}
    for x in INTS:
        bits, signed = int(x[1:]), x[0] == 'i'
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (1, (1 << bits) - 1)
        tab[x] = [v or 1 for v in (rnd.randint(lo, hi) for _ in range(RUNS))]
    for x in t['floats']:
        tab[x] = [rnd.choice((-1, 1)) * 10 ** rnd.uniform(-2, 3) for _ in range(RUNS)]
    return tab


def measured_source(t, src, tab, fn):
    """The snippets' source with a main that runs snippet fn RUNS times over the operands tab."""
    ct = t['ctypes']
    lit = lambda x, v: ('%.6gf' % v) if x == 'f32' else ('%.9g' % v) if x[0] == 'f' else (
        '%dLL' % v if x[0] == 'i' else '%uULL' % v)
    out = [src.replace('int main(void) { return 0; }', '')]
    for x in sorted(tab):
        out.append('static const %s tab_%s[%d] = {%s};' % (ct[x], x, RUNS, ', '.join(
            '(%s) %s' % (ct[x], lit(x, v)) for v in tab[x])))
    out.append('int main(void) { for (unsigned char k = 0; k < %d; k++) { %s gv_i = k; %s(); } return 0; }' % (
        RUNS, ' '.join('gv_%s = tab_%s[k];' % (x, x) for x in sorted(tab)), fn))
    return '\n'.join(out) + '\n'


def simavr_cycles(elf):
    """simavr's cycle count of the firmware elf, from roi run."""
    roi = os.path.join(ROOT, 'build', 'bin', 'roi')
    if not os.access(roi, os.X_OK):
        raise SystemExit('derive: %s is missing: "make all" first (simavr measures the routines)' % roi)
    out = run([roi, 'run', '--target', 'avr', '--mcu', 'atmega32u4', '--cycles-only', elf])
    mm = re.search(r'stopped after (\d+) cycles', out)
    if not mm:
        raise SystemExit('derive: no cycle count from %s: %s' % (elf, out))
    return int(mm.group(1))


def measure_routines(T, tmp, fn, routines):
    """Cycles the routines called by snippet fn take per run, stub's ret included, by simavr."""
    c = os.path.join(tmp, 'measure-%s.c' % fn)
    with open(c, 'w') as f:
        f.write(measured_source(T.t, T.source, T.operands, fn) + ''.join(
            '__asm__(".global __wrap_%s\\n__wrap_%s: ret");\n' % (r, r) for r in sorted(set(routines))))
    cyc = []
    for stub in (False, True):
        elf = os.path.join(tmp, 'measure-%s%s.elf' % (fn, '-stub' if stub else ''))
        # the snippet's calls go to the stubs; the library keeps its routines for each other
        defs = ['-Wl,--wrap=%s' % r for r in sorted(set(routines))] if stub else []
        # (the other snippets are left out: the whole set does not fit the flash)
        run(T.t['cc'] + ['-ffunction-sections', '-fdata-sections', c, '-o', elf, '-Wl,--gc-sections'] + defs)
        cyc.append(simavr_cycles(elf))
    ret = cost('avr', 'ret', '', 'ret', False)
    return (cyc[0] - cyc[1]) / RUNS + len(routines) * ret


def measured(match):
    """Whether a snippet's routines are measured rather than walked (see above)."""
    variable_shift = match['kind'] in ('shl', 'shr', 'rotl', 'rotr') and 'operand' not in match
    return not variable_shift and not match.get('callee')


def derive(arch, tmp, trace=None):
    T = Target(arch, tmp, trace)
    t = T.t
    rows, n, brs, frame_r, frame_w = [], 0, [], {}, {}
    for match, bodies in T.snips:
        parts = []
        for _ in bodies:
            ins = T.region('b_%d' % n, 'e_%d' % n)
            n += 1
            if match['kind'] in COMPARISONS:      # split off the branch
                # (at -Os avr-gcc tests equality with a skip, cpse, over a jump)
                if not any(classify(arch, m, o)[0] in ('cbr', 'skip') for m, o in ins):
                    raise SystemExit('derive: no branch in %s: %s' % (match, ins))
                k = max(i for i, (m, o) in enumerate(ins) if classify(arch, m, o)[0] in ('cbr', 'skip'))
                brs.append(cost(arch, ins[k][0], ins[k][1], classify(arch, ins[k][0], ins[k][1])[0], False))
                ins = ins[:k] + ins[k + 1:]
            part = T.seq_cost(ins)
            if arch == 'avr' and part[3] and measured(match):
                walked = sum(T.routine(r) for r in part[3])
                got = measure_routines(T, tmp, 's%d' % (n - 1), part[3])
                part = (part[0] - walked + got,) + part[1:]
            parts.append(part)
        core = sum(p[0] for p in parts) / len(parts)
        fr = sum(p[1] for p in parts) / len(parts)
        fw = sum(p[2] for p in parts) / len(parts)
        calls = sorted(set(c for p in parts for c in p[3]))
        steps = sum(p[4] for p in parts) / len(parts)
        turns = sum(p[5] for p in parts) / len(parts)
        # value counters (docs/formats.md): a shift by a run-time amount costs its set-up per
        # execution and a loop turn per bit ("steps"), memcpy its call per execution and a turn of
        # its loop per byte ("bytes"); the typical path walked one turn, which goes to those
        value = None
        if match['kind'] in ('shl', 'shr', 'rotl', 'rotr') and 'operand' not in match:
            # a 64-bit shift's steps are the passes of its routine, a byte's then a bit's (the
            # plugin counts n / 8 + n % 8): one more turn walked both loops once more
            passes = 2 if turns and match['type'][1:] == '64' else 1
            value = dict(kind='steps', type=match['type'], cycles=round(steps + turns / passes, 1),
                         note='one %s of a shift by a run-time amount: a turn of the shift loop%s' % (
                             'pass (a byte or a bit)' if passes == 2 else 'bit',
                             ' of the routine' if turns else ''))
            core -= turns
        elif match['kind'] == 'call' and match.get('callee') and arch == 'avr' and steps and not calls:
            # expanded inline (strlen, optimising): its loop, a turn per byte, left out of core
            value = dict(kind='bytes', callee=match['callee'], cycles=round(steps, 1),
                         note='one byte more: a turn of the inline loop GCC expands the call into')
        elif match['kind'] == 'call' and match.get('callee') and arch == 'avr':
            value = dict(kind='bytes', callee=match['callee'], cycles=round(turns, 1),
                         note='one byte more: a turn of the routine\'s loop along its typical path')
            if match['callee'] != 'strlen':     # (strlen's turn for the terminating byte stays)
                core -= turns
        elif match['kind'] == 'call' and match.get('callee'):
            # newlib's routines copy and compare words in unrolled loops, no turn is a byte: the
            # call's typical path stands for a typical length
            value = dict(kind='bytes', callee=match['callee'], cycles=0.0,
                         note='not derived: the routine works word by word in unrolled loops; the call '
                              'entry is its typical path, a typical length')
        # the stack-slot reads and writes of the operands are the frame operations' own
        cyc = core
        note = 'core %g (frame reads %g and writes %g are frame operations)' % (core, fr, fw)
        if len(bodies) > 1:
            note += '; mean of %d forms' % len(bodies)
        if calls:
            note += '; calls %s, costed along the typical path of the linked routine' % ', '.join(
                '%s (%g)' % (c, T.routines[c]) for c in calls)
        rows.append(dict(match, cycles=round(cyc, 1), note=note))
        if value and not any(r['kind'] == value['kind'] and r.get('type') == value.get('type') and
                             r.get('callee') == value.get('callee') for r in rows):
            rows.append(value)
        if match['kind'] == 'move':
            frame_r[match['type']] = fr
        if match['kind'] in ('add', 'ptradd'):      # a result stored after computing, not after a load
            frame_w[match['type']] = fw
    # br: one conditional branch, taken and not taken averaged
    rows.append(dict(kind='br', cycles=round(sum(brs) / len(brs), 2),
                     note='one conditional branch, taken/not taken averaged (%s)' % (
                         'brXX 1/2' if arch == 'avr' else 'B<cond> 1/1+P, P=2')))
    # an unconditional jump at the end of a block (a then-arm past its else, a break, a loop's jump to
    # its condition), which the plugin's RTL pass counts as the operation "jump"
    rows.append(dict(kind='jump', cycles=cost(arch, 'rjmp' if arch == 'avr' else 'b', '.L1', 'jmp', False),
                     note='one unconditional jump (%s)' % ('rjmp 2' if arch == 'avr' else 'B 1+P, P=2')))
    # switch: dispatch averaged over the cases (5 dense cases + default, index an int named local)
    # load/store of a named local's stack slot: the reads of "r = a", the writes of "r = a + b"
    for x in frame_r:
        rows.append(dict(kind='load', type=x, access='frame', cycles=round(frame_r[x], 1),
                         note='the stack-slot reads of a move from a named local'))
        rows.append(dict(kind='store', type=x, access='frame', cycles=round(frame_w[x], 1),
                         note='the stack-slot writes of an addition\'s result to a named local'))
    sc, sf, ncase = T.switch_paths()
    rows.append(dict(kind='switch', cycles=round(sc, 1),
                     note='dispatch of a 5-case dense int switch averaged over its %d targets: core %.1f (the '
                          'index\'s frame read %.1f is a frame operation); more cases cost more' % (ncase, sc, sf)))
    # a switch the compiler expands as a jump table (the plugin's RTL pass tells, operand "table"):
    # 9 dense cases + default, at or above every target's threshold for a table
    if arch == 'avr':
        sc, sf, ncase = T.switch_paths('swt')
        rows.append(dict(kind='switch', operand='table', cycles=round(sc, 1),
                         note='dispatch of a 9-case dense int switch through its jump table, averaged over its '
                              '%d targets: core %.1f (the index\'s frame read %.1f is a frame operation)'
                              % (ncase, sc, sf)))
    # call: call site (one int argument, int result) + callee prologue; ret: epilogue + return
    # the registers a prologue saves and its epilogue restores are the operation "save" (the
    # plugin reads their number off the register allocation): one register's save and restore
    cs = T.seq_cost(T.region('b_x', 'e_x'))
    fi = [k for k, it in enumerate(T.items) if it == ('func', 'callee')][0]
    pro_ins, ep_ins = T.region(None, 'p_x', start=fi + 1), T.region('r_x')
    pro, ep = T.seq_cost(pro_ins), T.seq_cost(ep_ins)
    nsaved = saved_count(arch, pro_ins)
    if arch == 'avr':
        pushed = sum(T.seq_cost([i])[0] for i in pro_ins if i[0] == 'push' and avr_saved(i[1]))
        popped = sum(T.seq_cost([i])[0] for i in ep_ins if i[0] == 'pop' and avr_saved(i[1]))
    else:                               # PUSH and POP take 1+N: one cycle per register each way
        pushed = popped = float(nsaved)
    optimised = t.get('opt', 'O0') != 'O0'
    if nsaved == 0 and not optimised:
        raise SystemExit('derive: the callee snippet saves no register: %s' % pro_ins)
    # one register's save and restore (optimised, the callee keeps x where it came: a push and a pop)
    save1 = (pushed + popped) / nsaved if nsaved else cost(arch, 'push', 'r28', 'op', False) + cost(
        arch, 'pop', 'r28', 'op', False)
    # the stack frame's allocation and release are the operation "frame"
    fpro = T.seq_cost([i for i in pro_ins if is_frame_setup(arch, *i)])[0]
    fep = T.seq_cost([i for i in ep_ins if is_frame_setup(arch, *i)])[0]
    if (fpro == 0 or fep == 0) and not optimised:
        raise SystemExit('derive: no stack frame set up or released in the callee snippet: %s %s' % (pro_ins, ep_ins))
    # (the argument's spill to its stack slot is the frame store roi counts at the entry)
    ccyc = cs[0] + pro[0] + pro[1] - pushed - fpro
    rows.append(dict(kind='call', cycles=round(ccyc, 1),
                     note='call site with one int argument and int result (core %g; its frame reads %g and '
                          'writes %g are frame operations) + callee prologue with a stack frame and the argument '
                          'spilled (%g, of which %g saves %d registers and sets up the frame: the "save" and '
                          '"frame" operations, and %g spills the argument: a frame store); callee body not '
                          'included' % (cs[0], cs[1], cs[2], sum(pro[:3]), pushed + fpro, nsaved, pro[2])))
    rows.append(dict(kind='ret', cycles=round(ep[0] + ep[2] - popped - fep, 1),
                     note='epilogue of a function with a stack frame and the return instruction, without the '
                          'restores of saved registers and the frame\'s release (%g); the returned value is '
                          'loaded by the move before it' % (popped + fep)))
    # a byte of a spill slot moved by the register allocator's reloads: AVR ldd/std 2 a byte; ARM
    # ldr/str 2 a 4-byte word
    rows.append(dict(kind='spill', cycles=2.0 if arch == 'avr' else 0.5,
                     note='one byte of a spill slot loaded or stored (%s)' % (
                         'ldd/std Y+q 2' if arch == 'avr' else 'ldr/str [sp, #q] 2 a word')))
    # an access to the frame out of reach of the displacement (the plugin's "far", one per access
    # whatever its bytes): AVR's ldd/std reach Y+63, beyond it avr-gcc moves Y to the slot and
    # back around the access; an ARM ldr/str reaches 4095 bytes, beyond it an add of the offset
    rows.append(dict(kind='far', cycles=4.0 if arch == 'avr' else 1.0,
                     note='one frame access beyond the displacement (%s)' % (
                         'subi/sbci r28/r29 there and back 4' if arch == 'avr' else 'add 1')))
    # a move of a base register that has no displacement around an access through it (the
    # plugin's "adjust"): AVR's X, adiw/sbiw r26 2 each; every ARM base register has an offset
    rows.append(dict(kind='adjust', cycles=2.0 if arch == 'avr' else 1.0,
                     note='one move of the base register around an access (%s)' % (
                         'adiw/sbiw r26 2' if arch == 'avr' else 'none on ARM: every base has an offset')))
    # the callee's frame cost stands for no size; a frame of every small size and one of
    # SMALL_FRAME bytes (the large frames' cost, the entry without operand) are measured on
    # functions of their own; a small size gets an entry where its cost differs from a large one's
    frames = []
    for n in range(SMALL_FRAME, 0, -1):
        fi = [k for k, it in enumerate(T.items) if it == ('func', 'frame%d' % n)][0]
        pro_n = T.region(None, 'p_f%d' % n, start=fi + 1)
        fpro = T.seq_cost([i for i in pro_n if is_frame_setup(arch, *i)])[0]
        fep = T.seq_cost([i for i in T.region('r_f%d' % n) if is_frame_setup(arch, *i)])[0]
        if fpro == 0 or fep == 0:
            raise SystemExit('derive: no stack frame set up or released in frame%d' % n)
        size = '%d byte%s' % (n, 's' if n > 1 else '') if n < SMALL_FRAME else '%d bytes or more' % n
        row = dict(kind='frame', cycles=round(fpro + fep, 1),
                   note='a stack frame of %s allocated in the prologue (%g) and released in the epilogue (%g)'
                        % (size, fpro, fep))
        if n < SMALL_FRAME:
            row['operand'] = str(n)
        if n == SMALL_FRAME or row['cycles'] != frames[0]['cycles']:
            frames.append(row)
    rows.extend(frames[:1] + frames[:0:-1])
    rows.append(dict(kind='save', cycles=round(save1, 2),
                     note='one callee-saved register saved in the prologue and restored in the epilogue '
                          '(%s)' % ('push 2 + pop 2' if arch == 'avr' else 'one more register of PUSH and POP')))
    rows.append(float_alignment_pass(T, tmp) if arch == 'avr' else dict(
        kind='steps', type='f32', cycles=0.0,
        note='none: VADD.F32/VSUB.F32 align in hardware, the same cycles whatever the exponents'))
    rows.extend(division_steps(T, tmp) if arch == 'avr' else [dict(
        kind='qbits', type=t, cycles=0.0,
        note='none: UDIV and SDIV in hardware, 2 to 12 cycles by the operands\' magnitudes, not by '
             'the quotient\'s 1 bits') for t in ('u16', 'u32')])
    return T, without_index_scaling(t, rows)


def slope(xs, ys):
    """The least-squares slope of ys over xs: simavr's cycles per unit of a counted value."""
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def division_steps(T, tmp):
    """The "qbits" entries of u16 and u32: one step of __udivmodhi4's or __udivmodsi4's loop that
    subtracts the divisor (a 1 bit of the quotient) beyond one that does not, which the plugin counts
    per division (roi-divide.cc). Measured in simavr: a / 1 a hundred times for a of 0 .. W one bits,
    the slope of the cycles against the bits (least squares); the div and mod entries are the
    routines' path of a quotient of none."""
    rows = []
    for width, ctype in ((16, 'unsigned int'), (32, 'unsigned long')):
        xs, ys = [], []
        for bits in range(width + 1):
            c = os.path.join(tmp, 'divsteps-%d-%d.c' % (width, bits))
            elf = c[:-2] + '.elf'
            with open(c, 'w') as f:
                f.write('volatile %s x = %#xUL, y = 1, r;\n'
                        'int main(void) { for (unsigned char i = 0; i < 100; i++) r = x / y; return 0; }\n'
                        % (ctype, (1 << bits) - 1))
            run(T.t['cc'] + [c, '-o', elf])
            xs.append(bits)
            ys.append(simavr_cycles(elf) / 100.0)
        rows.append(dict(kind='qbits', type='u%d' % width, cycles=round(slope(xs, ys), 1),
                         note='one step of __udivmod%s4 that subtracts (a 1 bit of the quotient): the slope '
                              'of simavr\'s cycles for x / 1 against the 1 bits of x, 0 .. %d'
                              % ('hi' if width == 16 else 'si', width)))
    return rows


def alignment_passes(d):
    """The plugin's count for a float add of operands d binary orders apart (roi-value-sites.cc)."""
    return d // 8 + d % 8 if d <= 32 else 0


def float_alignment_pass(T, tmp):
    """The "steps" entry of f32: one pass of __addsf3's alignment of the smaller operand's mantissa
    (a byte or a bit), which the plugin counts per add or subtract. Measured in simavr: 1.5 + 1.5 / 2^d
    a hundred times for d = 0 .. 32, the slope of the cycles against the passes (least squares); the
    add entry itself is the snippet's, whose operands are equal (d = 0)."""
    xs, ys = [], []
    for d in range(33):
        c = os.path.join(tmp, 'align-%d.c' % d)
        elf = c[:-2] + '.elf'
        with open(c, 'w') as f:
            f.write('volatile float x = 1.5f, y = %.9gf, r;\n'
                    'int main(void) { for (unsigned char i = 0; i < 100; i++) r = x + y; return 0; }\n'
                    % (1.5 / 2 ** d))
        run(T.t['cc'] + [c, '-o', elf])
        xs.append(alignment_passes(d))
        ys.append(simavr_cycles(elf) / 100.0)
    return dict(kind='steps', type='f32', cycles=round(slope(xs, ys), 1),
                note='one pass (a byte or a bit) of __addsf3\'s alignment of the smaller mantissa: the '
                     'slope of simavr\'s cycles for 1.5 + 1.5 / 2^d, d = 0 .. 32, against the passes')


def without_index_scaling(t, rows):
    """The plugin counts a[i]'s scaling of i by the element size as an operation of its own ("index"
    of size_t, operand the shift by the size's logarithm, or "const" for a multiply): its entries are
    those of the shift and the multiply of size_t, and the snippets' array accesses hand their shift
    over to it."""
    size_t = 'u%d' % t['abi']['pointer']
    shifts = {r['operand']: r['cycles'] for r in rows
              if r['kind'] == 'shl' and r.get('type') == size_t and 'operand' in r}
    out = []
    for r in rows:
        x = r.get('type')
        size = t['abi']['pointer'] // 8 if x == 'ptr' else int(x[1:]) // 8 if x and x[1:].isdigit() else 1
        if r['kind'] in ('load', 'store') and r.get('access') == 'array' and size > 1:
            sh = shifts[str(size.bit_length() - 1)]
            r = dict(r, cycles=round(max(r['cycles'] - sh, 0), 1),
                     note=r['note'] + '; without the index scaling (index by %d, %g)' % (size.bit_length() - 1, sh))
        out.append(r)
        if r.get('type') == size_t and (r['kind'], r.get('operand')) in [('mul', 'const')] + [
                ('shl', str(n)) for n in range(1, 16)]:
            out.append(dict(kind='index', type=size_t, operand=r['operand'], cycles=r['cycles'],
                            note='a run-time subscript scaled by the element size: as %s %s %s' % (
                                r['kind'], size_t, r['operand'])))
    return out


def with_fallbacks(t, rows):
    """Class entries: int from the native int type, float from the widest float, ptr from ptr;
    conv class entries are means; a per-type load/store without access (e.g. bitfield) uses field."""
    out = list(rows)
    key = lambda r: tuple(sorted((k, v) for k, v in r.items() if k not in ('cycles', 'note')))
    have = {key(r) for r in rows}
    for r in rows:
        if r['kind'] in ('conv', 'br', 'switch', 'call', 'ret'):
            continue
        for cls, src in (('int', t['native']), ('float', t['floats'][-1]), ('ptr', 'ptr')):
            if r.get('type') == src:
                e = {k: v for k, v in r.items() if k not in ('type', 'note')}
                e = dict(kind=e.pop('kind'), **{'class': cls}, **e)
                e['note'] = 'fallback: as %s' % src
                if key(e) not in have:
                    have.add(key(e))
                    out.append(e)
        if r['kind'] in ('load', 'store') and r['access'] == 'field':
            e = dict(kind=r['kind'], type=r['type'], cycles=r['cycles'], note='fallback (bitfield...): as field')
            out.append(e)
    for cls, types in (('int', INTS), ('float', t['floats'])):
        cs = [r['cycles'] for r in rows if r['kind'] == 'conv' and r['type'] in types and r['from'] in types]
        if cs:
            out.append(dict(kind='conv', **{'class': cls}, cycles=round(sum(cs) / len(cs), 1),
                            note='fallback: mean of the %s-to-%s conversions' % (cls, cls)))
    return out


def write_model(path, t, rows, routines, sanity):
    prov = (
        "Derived, not calibrated: until calibration lands, every cycle cost comes from the instruction sequence "
        "%s (%s) emits for the operation and the instruction timings of %s. contrib/models/derive.py compiles one "
        "snippet per operation that isolates it between two inline-asm markers (the difference against the same "
        "function without the operation), sums the instructions' cycles from a timing table typed in from the "
        "manual, and costs calls into library routines (%s) %s. At -O0 named locals live "
        "in stack slots and roi counts every read and write of one as an operation of its own (load/store, access "
        "frame, costed as the stack-slot reads and writes of a move): no other entry includes them. "
        "Conditional branches count the average of taken and not taken; an unconditional jump that ends a block "
        "is the operation jump (the plugin reads it off the expanded code). Not modelled: %s"
        "callee bodies of calls to unprofiled functions. Sanity check (not a fit): %s") % (
        t['compiler'], t['flags'],
        'the AVR Instruction Set Manual (16-bit PC: call/ret 4, rcall 3, ld/st/lds/sts 2, mul 2, brXX 1/2)'
        if t is TARGETS['avr'] else
        'the Cortex-M4 TRM Table 3-1 and the FPU instruction timings (P = 2 for a pipeline refill, taken branch 3, '
        'LDR/STR 2 and 1 when pipelined after a load, SDIV/UDIV 7 as the middle of 2..12, VDIV 14)',
        ', '.join(sorted(routines)) or 'none',
        'by running each snippet that calls one 16 times in simavr over typical operands, once with the routines '
        'and once with a bare ret in their place (the memory routines and shifts by a run-time amount: by '
        'walking the linked routine along its typical path, per byte and per bit)' if t is TARGETS['avr'] else
        'by walking the linked routine\'s disassembly along its typical path (loops multiplied by their iteration '
        'count, see each entry\'s note)',
        'flash wait states (the ART accelerator is assumed to hide the 2 wait states at 84 MHz), and '
        if t is TARGETS['arm'] else '', sanity)
    m = collections.OrderedDict([
        ('roi_model', 1), ('part', t['part']), ('arch', 'avr' if t is TARGETS['avr'] else 'arm'),
        ('core', t['core']), ('clock_hz', int(t['clock'])), ('supply_v', t['supply']),
        ('energy_per_cycle_j', float('%.4g' % (t['supply'] * t['current'] / t['clock']))),
        ('energy_source', t['energy_source']), ('compiler', t['compiler']), ('opt', t.get('opt', 'O0')),
        ('abi', t['abi']),
        ('provenance', prov)])
    head = json.dumps(m, indent=2)[:-2]
    lines = [json.dumps(r) for r in rows]
    with open(path, 'w') as f:
        f.write(head + ',\n  "costs": [\n    ' + ',\n    '.join(lines) + '\n  ]\n}\n')


SANITY = {
    'avr': ("contrib/examples/matrix/matrix.c built with avr-gcc -mmcu=atmega32u4 -O0 runs 9687 cycles from main's "
            "entry to exit under simavr; this table with roi's counts for it (plugin metadata x loop trip counts) "
            "gives 9224 cycles, 4.8% low, most of it the unaccounted loop jumps."),
    'arm': ("no cycle-accurate Cortex-M4 simulator was at hand; make bench-stm32 compares this table with QEMU's "
            "executed-instruction counts of the calibration corpus (bench/results/stm32-qemu.json)."),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--arch', choices=['avr', 'arm'], action='append')
    ap.add_argument('--out', default=os.path.join(ROOT, 'models'))
    ap.add_argument('--trace', metavar='SYMBOL', help='print the typical path through a library routine')
    ap.add_argument('--keep', metavar='DIR', help='keep the generated C, assembly and ELF files in DIR')
    ap.add_argument('--opt', choices=['O0', 'O2', 'Os'], default='O0',
                    help='the level the snippets are compiled at (O2, Os: AVR only, the prior of the '
                         'optimised calibrations, written to atmega32u4-LEVEL-derived.json)')
    a = ap.parse_args()
    if a.opt != 'O0':
        if a.arch and a.arch != ['avr']:
            ap.error('--opt %s derives the AVR part only' % a.opt)
        a.arch = ['avr']
        t = TARGETS['avr']
        t['cc'] = [('-' + a.opt) if x == '-O0' else x for x in t['cc']]
        t['flags'] = t['flags'].replace('-O0', '-' + a.opt)
        t['file'], t['opt'] = 'atmega32u4-%s-derived.json' % a.opt, a.opt
        SANITY['avr'] = ('none at %s: make bench-accuracy shows what it is worth as the prior of the %s '
                         'calibration (bench/results/accuracy.json)' % (a.opt, a.opt))
    for arch in a.arch or ['avr', 'arm']:
        tmp = a.keep or tempfile.mkdtemp(prefix='roi-derive.')
        os.makedirs(tmp, exist_ok=True)
        try:
            T, rows = derive(arch, tmp, a.trace)
        finally:
            if not a.keep:
                shutil.rmtree(tmp)
        rows = with_fallbacks(T.t, rows)
        unused = set(TYPICAL[arch]['iters']) | set(TYPICAL[arch]['taken'])
        for s in sorted(unused - T.used):
            print('derive: warning: TYPICAL site %s was not reached' % s, file=sys.stderr)
        print('\n%s (%s): %d entries' % (T.t['part'], T.t['compiler'], len(rows)))
        for sym, c in sorted(T.routines.items()):
            print('  routine %-18s %7.1f cycles' % (sym, c))
        for r in rows:
            match = ' '.join('%s=%s' % (k, v) for k, v in r.items() if k not in ('kind', 'cycles', 'note'))
            print('  %-7s %-28s %7.1f   %s' % (r['kind'], match, r['cycles'], r['note']))
        out = os.path.join(a.out, T.t['file'])
        write_model(out, T.t, rows, T.routines, SANITY[arch])
        print('wrote', out)


if __name__ == '__main__':
    main()
