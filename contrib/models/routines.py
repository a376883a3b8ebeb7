#!/usr/bin/env python3
"""routines.py - what the library routines cost a call, measured in simavr: the "routines" of the
AVR cost models, which roi estimate --price machine prices calls into code without metadata with
(docs/accuracy.md, "Machine-code pricing").

For every routine a small program calls it RUNS times over typical operands (derive.py's: integers
of their full range, signed ones of both signs, none 0; floats of both signs between 0.01 and 1000;
strings of decimal numbers, printable and other characters); simavr runs it once as built and once
with the routine replaced by a bare "ret" (-Wl,--wrap), and the difference per call, with the
stub's ret, is the routine's cost from its first instruction to its return (the call instruction
is the caller's). Where the plugin counts what decides the cost at the call site (a value counter:
a division's quotient bits, a float add's alignment passes, a 64-bit shift's passes, a memory
routine's bytes), the cost per unit is the least-squares slope of simavr's cycles over a sweep of
that value, and the entry also says what the typical operands average, so that the estimate takes
the counted value instead.

With --target arm, the Cortex-M models' routines (newlib-nano's memory and string routines): no
cycle-exact Cortex-M simulator is at hand, so QEMU counts the instructions a call runs (its
single-stepped execution log, as bench/machine.sh counts the firmware's), and the cycles are those
instructions by the Cortex-M4 TRM; roi estimate --price machine takes both.

  contrib/models/routines.py [--target avr|arm] [--into MODEL.json ...] [--keep DIR] [--only NAME...]
"""
import argparse, json, math, os, re, shutil, struct, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import derive  # noqa: E402  (the part's compiler, simavr through roi run, typical operands)

T = derive.TARGETS['avr']
RUNS = 16
RET = 4         # the stub's ret, a 16-bit-PC part's (AVR Instruction Set Manual)
CT = dict(i8='int8_t', u8='uint8_t', i16='int16_t', u16='uint16_t', i32='int32_t', u32='uint32_t',
          i64='int64_t', u64='uint64_t', f32='float')


def lit(x, v):
    if x == 'f32':
        return '%.9gf' % v
    return ('%dLL' if x[0] == 'i' else '%uULL') % v


def harness(decls, body, opt='-Os'):
    src = ('#include <stdint.h>\n#include <string.h>\n#include <stdlib.h>\n#include <ctype.h>\n'
           '#include <math.h>\n%s\nint main(void) { for (uint8_t k = 0; k < %d; k++) { %s } return 0; }\n'
           % (decls, RUNS, body))
    return src, opt


def table(name, x, values):
    return 'volatile %s %s[%d] = {%s};\n' % (CT[x], name, RUNS, ', '.join('(%s) %s' % (CT[x], lit(x, v))
                                                                         for v in values))


def strings(name, values):
    return 'const char *const %s[%d] = {%s};\n' % (name, RUNS, ', '.join(json.dumps(v) for v in values))


def compile_and_run(tmp, tag, src, opt, wrap=()):
    c = os.path.join(tmp, tag + '.c')
    elf = os.path.join(tmp, tag + ('-stub' if wrap else '') + '.elf')
    with open(c, 'w') as f:
        f.write(src)
        for w in wrap:
            f.write('__asm__(".global __wrap_%s\\n__wrap_%s: ret");\n' % (w, w))
    cc = [x if x != '-O0' else opt for x in T['cc']] + ['-lm']
    derive.run(cc + [c, '-o', elf] + ['-Wl,--wrap=%s' % w for w in wrap])
    return elf, derive.simavr_cycles(elf)


def aliases(elf, name):
    """The global names of the routine name is one of (avr-libc's __cmpsf2 is __eqsf2 too); None
    when the program does not call it."""
    dis = derive.run(['avr-objdump', '-d', elf])
    if not re.search(r'(call|jmp)\s.*<%s>' % re.escape(name), dis):
        return None
    at = {}
    for line in derive.run(['avr-nm', elf]).splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in 'TW':
            at.setdefault(int(p[0], 16), []).append(p[2])
    for names in at.values():
        if name in names:
            return names
    return [name]


def per_call(tmp, tag, name, src, opt):
    """Cycles of one call of name in src (which calls it RUNS times), from its entry to its return."""
    elf, real = compile_and_run(tmp, tag, src, opt)
    names = aliases(elf, name)
    if names is None:
        return None
    _, stub = compile_and_run(tmp, tag, src, opt, wrap=names)
    return (real - stub) / RUNS + RET


# ---- typical operands and the values the plugin counts ------------------------------------------
TYP = derive.typical_operands(T)


def popcount(v):
    return bin(abs(v)).count('1')


def exponent(f):
    return struct.unpack('<I', struct.pack('<f', f))[0] >> 23 & 0xff


def passes(a, b):
    return derive.alignment_passes(abs(exponent(a) - exponent(b)))


def int_float_passes(x):
    """The normalisation passes of __floatsisf/__floatunsisf for the integer x, as the plugin counts
    them ("norm", gcc-plugin/roi-value-sites.cc): of |x| with n significant bits, n - 24 one-bit
    shifts right above 24 bits, else the shifts left that bring its top byte's top bit up."""
    n = abs(x).bit_length()
    return n - 24 if n > 24 else -n & 7


def float_int_passes(f):
    """The normalisation passes of __fixunssfsi (which __fixsfsi calls) for the single f, as the
    plugin counts them: by its biased exponent e, d / 8 + d % 8 (bytes, then bits) for d = 150 - e
    from e = 127 to 150, e - 150 one-bit shifts left above, none below (the result is 0)."""
    e = exponent(f)
    if e < 127:
        return 0
    return (150 - e) // 8 + (150 - e) % 8 if e <= 150 else e - 150


def flit(v):
    """A float literal C reads back as the single v."""
    return '%.9ef' % v


def float_with_exponent(e):
    """A single of biased exponent e, its mantissa a mixed pattern (not the cheapest rounding)."""
    return struct.unpack('<f', struct.pack('<I', e << 23 | 0x2aaaaa))[0]


def quotient(a, b):
    q = abs(a) // abs(b)
    return q


def rnd(seed):
    import random
    return random.Random(seed)


R = rnd(20261130)
NUMBERS = ['%d' % R.randint(-99999, 99999) for _ in range(RUNS)]
CHARS = [R.randint(0, 127) for _ in range(RUNS)]
WORDS = [''.join(chr(R.randint(97, 122)) for _ in range(R.randint(3, 12))) for _ in range(RUNS)]
SHIFTS = [R.randint(0, 63) for _ in range(RUNS)]


def binary(name, x, op, callee):
    """A binary operation of type x on the typical operands."""
    a, b = TYP[x][:RUNS], TYP[x][RUNS:] if len(TYP[x]) > RUNS else list(reversed(TYP[x]))
    decls = table('A', x, a) + table('B', x, b) + 'volatile %s r;\n' % CT[x]
    return dict(name=callee, decls=decls, body='%s a = A[k], b = B[k]; r = (%s) (a %s b);' % (CT[x], CT[x], op),
                ops=(a, b))


def specs():
    out = []
    for x, name in (('u32', '__mulsi3'), ('u64', '__muldi3')):
        out.append(binary('mul', x, '*', name))
    # 32 x 32 -> 64
    for name, x in (('__mulsidi3', 'i32'), ('__umulsidi3', 'u32')):
        t64 = 'int64_t' if x[0] == 'i' else 'uint64_t'
        out.append(dict(name=name, decls=table('A', x, TYP[x][:RUNS]) + table('B', x, TYP[x][::-1][:RUNS]) +
                        'volatile %s r;\n' % t64, body='%s a = A[k], b = B[k]; r = (%s) a * b;' % (CT[x], t64)))
    s = binary('mod', 'i8', '%', '__divmodqi4')
    s['body'] = 'int8_t a = A[k]; r = (int8_t) (a % 7);'      # (avr-gcc divides a byte by a constant so)
    out.append(s)
    for x, name in (('u8', '__udivmodqi4'), ('u16', '__udivmodhi4'),
                    ('i16', '__divmodhi4'), ('u32', '__udivmodsi4'), ('i32', '__divmodsi4'),
                    ('u64', '__udivdi3'), ('i64', '__divdi3')):
        s = binary('div', x, '/', name)
        bits = int(x[1:])
        if bits in (16, 32):
            a, b = s['ops']
            s['value'] = dict(kind='qbits', type='u%d' % bits)
            s['typical'] = sum(popcount(quotient(p, q)) for p, q in zip(a, b)) / RUNS
            ctype = 'uint%d_t' % bits if x[0] == 'u' else 'int%d_t' % bits
            s['sweep'] = [(n, 'volatile %s A = (%s) %#xUL, B = 1, r;\n' % (ctype, ctype, (1 << n) - 1), 'r = A / B;')
                          for n in range(0, bits if x[0] == 'u' else bits - 1)]
        out.append(s)
    for x, name in (('u64', '__umoddi3'), ('i64', '__moddi3')):
        out.append(binary('mod', x, '%', name))
    # widening multiplies: a 16 x 16 -> 32 product
    for name, ta, tb in (('__umulhisi3', 'u16', 'u16'), ('__mulhisi3', 'i16', 'i16'),
                         ('__usmulhisi3', 'u16', 'i16')):
        decls = (table('A', ta, TYP[ta][:RUNS]) + table('B', tb, TYP[tb][:RUNS]) +
                 'volatile int32_t r;\n')
        out.append(dict(name=name, decls=decls, body='%s a = A[k]; %s b = B[k]; r = (int32_t) a * (int32_t) b;'
                        % (CT[ta], CT[tb])))
    # a signed 16-bit operand times a 32-bit one (avr-gcc: (int32_t) i16 * i32); it tests the sign
    out.append(dict(name='__mulshisi3', decls=table('A', 'i16', TYP['i16'][:RUNS]) +
                    table('B', 'i32', TYP['i32'][:RUNS]) + 'volatile int32_t r;\n',
                    body='int16_t a = A[k]; int32_t b = B[k]; r = a * b;'))
    out.append(dict(name='__muluhisi3', decls=table('A', 'u32', TYP['u32'][:RUNS]) + 'volatile uint32_t r;\n',
                    body='r = A[k] * 1000UL;'))
    # 64-bit shifts by a run-time amount: passes of a byte, then of a bit
    for name, x, expr in (('__ashldi3', 'u64', 'A[k] << N[k]'), ('__lshrdi3', 'u64', 'A[k] >> N[k]'),
                          ('__ashrdi3', 'i64', 'A[k] >> N[k]'),
                          ('__rotldi3', 'u64', 'a << n | a >> (64 - n)')):
        decls = table('A', x, TYP[x][:RUNS]) + table('N', 'u8', [max(n, 1) for n in SHIFTS]) + \
            'volatile %s r;\n' % CT[x]
        steps = [n // 8 + n % 8 for n in (max(s, 1) for s in SHIFTS)]
        expr = expr.replace('A[k]', 'a').replace('N[k]', 'n')
        out.append(dict(name=name, decls=decls, body='%s a = A[k]; uint8_t n = N[k]; r = %s;' % (CT[x], expr),
                        value=dict(kind='steps', width=64, register=16), typical=sum(steps) / RUNS,
                        sweep=[(n // 8 + n % 8, 'volatile %s A = 0x123456789abcdefULL, r; volatile uint8_t N = %d;\n'
                                % (CT[x], n), '%s a = A; uint8_t n = N; r = %s;' % (CT[x], expr)) for n in range(1, 64)]))
    # 64-bit arithmetic avr-gcc calls at -O0
    for name, op in (('__adddi3', '+'), ('__subdi3', '-')):
        s = binary('add', 'u64', op, name)
        s['opt'] = '-O0'
        out.append(s)
    out.append(dict(name='__cmpdi2', decls=table('A', 'i64', TYP['i64'][:RUNS]) + table('B', 'i64', TYP['i64'][::-1][:RUNS])
                    + 'volatile int r;\n', body='r = A[k] < B[k];', opt='-O0'))
    # float
    fa, fb = TYP['f32'], list(reversed(TYP['f32']))
    fdecls = table('A', 'f32', fa) + table('B', 'f32', fb)
    for name, op in (('__addsf3', '+'), ('__subsf3', '-')):
        out.append(dict(name=name, decls=fdecls + 'volatile float r;\n', body='r = A[k] %s B[k];' % op,
                        value=dict(kind='steps', type='f32'),
                        typical=sum(passes(a, b) for a, b in zip(fa, fb)) / RUNS,
                        sweep=[(derive.alignment_passes(d), 'volatile float A = 1.5f, B = %.9gf, r;\n' % (1.5 / 2 ** d),
                                'r = A %s B;' % op) for d in range(33)]))
    for name, op in (('__mulsf3', '*'), ('__divsf3', '/')):
        out.append(dict(name=name, decls=fdecls + 'volatile float r;\n', body='r = A[k] %s B[k];' % op))
    for name, cmp in (('__cmpsf2', '=='), ('__gesf2', '>=')):
        out.append(dict(name=name, decls=fdecls + 'volatile int r;\n', body='r = A[k] %s B[k];' % cmp, opt='-O0'))
    # conversions: by their normalisation passes ("norm"), swept over the operand's magnitude: every
    # exponent from 0.25 to the top of the result's range, every bit length of the integer
    for name, tx, expr, top in (('__fixsfsi', 'i32', '(int32_t) A[k]', 157),
                                ('__fixunssfsi', 'u32', '(uint32_t) (A[k] < 0 ? -A[k] : A[k])', 158)):
        out.append(dict(name=name, decls=fdecls + 'volatile %s r;\n' % CT[tx], body='r = %s;' % expr,
                        value={'kind': 'norm', 'from': 'f32'},
                        typical=sum(float_int_passes(a) for a in fa) / RUNS,
                        sweep=[(float_int_passes(float_with_exponent(e)),
                                'volatile float A = %s; volatile %s r;\n' % (flit(float_with_exponent(e)), CT[tx]),
                                'r = (%s) A;' % CT[tx]) for e in range(125, top + 1)]))
    # An integer's typical operands (derive.py's, of the type's full range) have 31 or 32 bits and
    # take the shifts right, 9 cycles each and a rounding, where the program's small integers take
    # the shifts left, 6 cycles each after a byte move: anchored there, the line over the passes
    # priced a 10-bit integer 17 cycles high. The line is the sweep's own instead, over every bit
    # length alike, of both signs for the signed routine (a negative operand is negated first, 6
    # cycles).
    for name, tx, top in (('__floatsisf', 'i32', 31), ('__floatunsisf', 'u32', 32)):
        # (the bits below the top one a fixed pattern: the rounding of a right shift is the data's)
        sweep = [(1 << (n - 1)) | (0x5a5a5a5a & ((1 << (n - 1)) - 1)) for n in range(1, top + 1)]
        if tx[0] == 'i':
            sweep += [-x for x in sweep]
        out.append(dict(name=name, decls=table('A', tx, TYP[tx][:RUNS]) + 'volatile float r;\n',
                        body='r = (float) A[k];', value={'kind': 'norm', 'type': 'f32'}, typical=None,
                        sweep=[(int_float_passes(x), 'volatile %s A = %s; volatile float r;\n' % (CT[tx], lit(tx, x)),
                                'r = (float) A;') for x in sweep]))
    for name in ('sqrt', 'sin', 'cos', 'exp', 'log', 'atan2', 'pow', 'floor', 'ceil', 'fmod'):
        args = 'fabs(A[k])' if name in ('sqrt', 'log') else 'A[k], B[k]' if name in ('atan2', 'pow', 'fmod') else 'A[k]'
        if name == 'pow':
            args = 'fabs(A[k]), B[k] / 100'
        if name == 'exp':
            args = 'A[k] / 100'
        out.append(dict(name=name, decls=fdecls + 'volatile float r;\n', body='r = %s(%s);' % (name, args)))
    # newlib's single-precision square root (avr-libc's sqrtf is sqrt, above): a Cortex-M4 VSQRT
    # behind newlib's check of the operand
    out.append(dict(name='sqrtf', decls=fdecls + 'volatile float r;\n', body='r = sqrtf(fabsf(A[k]));'))
    # memory and strings: by their bytes where the plugin counts them
    mem = 'uint8_t D[72], S[72]; volatile size_t L[%d] = {%s};\n' % (RUNS, ', '.join(str(R.randint(1, 64))
                                                                                   for _ in range(RUNS)))
    for name, expr in (('memcpy', 'memcpy(D, S, L[k]);'), ('memmove', 'memmove(D + 1, D, L[k]);'),
                       ('memset', 'memset(D, k, L[k]);'), ('memcmp', 'r = memcmp(D, S, L[k]);')):
        sweep_expr = expr.replace('L[k]', 'N').replace('k', '1')
        out.append(dict(name=name, decls=mem + 'volatile int r;\n', body=expr, value=dict(kind='bytes', callee=name),
                        typical=None, opt='-O0',
                        sweep=[(n, mem + 'volatile int r; volatile size_t N = %d;\n' % n, sweep_expr)
                               for n in range(0, 65, 4)]))
    out.append(dict(name='strlen', decls=strings('W', WORDS) + 'volatile size_t r;\n', body='r = strlen(W[k]);',
                    value=dict(kind='bytes', callee='strlen'), typical=sum(len(w) for w in WORDS) / RUNS, opt='-O0',
                    sweep=[(n, 'const char *volatile W = "%s"; volatile size_t r;\n' % ('x' * n), 'r = strlen(W);')
                           for n in range(0, 33, 2)]))
    sdecl = strings('W', WORDS) + strings('V', list(reversed(WORDS))) + 'char D[32]; volatile int r;\n'
    for name, expr in (('strcpy', 'strcpy(D, W[k]); r = D[0];'), ('strcmp', 'r = strcmp(W[k], V[k]);'),
                       ('strncmp', 'r = strncmp(W[k], V[k], 4);'),
                       ('strcat', 'D[0] = 0; strcat(D, W[k]); r = D[1];')):
        out.append(dict(name=name, decls=sdecl, body=expr, opt='-O0'))
    # strchr by the characters it read, which the plugin counts after the call: up to the one it
    # found, or the whole string and its end; strings whose n-th character is the one looked for
    out.append(dict(name='strchr', decls=sdecl, body='r = strchr(W[k], 101) != 0;', opt='-O0',
                    value=dict(kind='bytes', callee='strchr'),
                    typical=sum(w.index('e') + 1 if 'e' in w else len(w) + 1 for w in WORDS) / RUNS,
                    sweep=[(n, 'const char *volatile W = "%se"; volatile int r;\n' % ('x' * (n - 1)),
                            'r = strchr(W, 101) != 0;') for n in range(1, 33, 2)]))
    ndecl = strings('W', NUMBERS) + 'volatile long r; char *end;\n'
    # strtol and strtoul by the digits they took, which the plugin counts where the call stores its
    # end (*end - nptr, less a sign): numbers of 1 to 9 digits, each 113 cycles more on avr-libc
    # (the line is exact, 254.75 + 113 n; a sign adds 6); a call the plugin cannot count (no end
    # pointer) costs what the typical operands do, their digits on average
    for name, call in (('strtol', 'strtol(W%s, &end, 10)'), ('strtoul', '(long) strtoul(W%s, &end, 10)')):
        out.append(dict(name=name, decls=ndecl, body='r = %s;' % (call % '[k]'),
                        value=dict(kind='bytes', callee=name),
                        typical=sum(len(w.lstrip('+-')) for w in NUMBERS) / RUNS,
                        sweep=[(n, 'const char *volatile W = "%s"; volatile long r; char *end;\n' % '123456789'[:n],
                                'r = %s;' % (call % '')) for n in range(1, 10)]))
    out.append(dict(name='atoi', decls=ndecl, body='r = atoi(W[k]);'))
    out.append(dict(name='atol', decls=ndecl, body='r = atol(W[k]);'))
    cdecl = table('C', 'u8', CHARS) + 'volatile int r;\n'
    for name in ('isprint', 'isspace', 'isalpha', 'isalnum', 'isupper', 'islower', 'isxdigit',
                 'ispunct', 'iscntrl', 'toupper', 'tolower'):
        out.append(dict(name=name, decls=cdecl, body='r = %s(C[k]);' % name, opt='-O0'))
    return out


def measure(s, tmp):
    opt = s.get('opt', '-Os')
    src, _ = harness(s['decls'], s['body'], opt)
    c = per_call(tmp, s['name'], s['name'], src, opt)
    if c is None:
        return None
    e = dict(routine=s['name'], cycles=round(c, 1))
    notes = ['simavr, %d calls on typical operands, avr-gcc %s' % (RUNS, opt)]
    if 'sweep' in s:
        xs, ys = [], []
        for i, (v, decls, body) in enumerate(s['sweep']):
            src, _ = harness(decls, body, opt)
            y = per_call(tmp, '%s-sweep%d' % (s['name'], i), s['name'], src, opt)
            if y is None:
                continue
            xs.append(v)
            ys.append(y)
        if len(set(xs)) > 1:
            k = derive.slope(xs, ys)
            e['value'] = s['value']
            e['per_value'] = round(k, 2)
            if s.get('typical') is None:
                # no typical operands of its own: the cost at the sweep's mean, per the line
                mx = sum(xs) / len(xs)
                e['typical_value'] = round(mx, 2)
                e['cycles'] = round(sum(ys) / len(ys), 1)
            else:
                e['typical_value'] = round(s['typical'], 2)
            notes.append('%s per unit of %s: the slope over %s = %g .. %g' % (
                e['per_value'], s['value']['kind'], s['value']['kind'], min(xs), max(xs)))
    e['note'] = '; '.join(notes)
    return e


# ---- Cortex-M: instructions counted in QEMU ------------------------------------------------------
# No cycle-exact Cortex-M simulator is at hand: QEMU (mps2-an386, the Cortex-M4 bench/machine.sh and
# roi run use) single-steps the program with its execution log, which names the routine of every
# instruction run; those outside main (which calls nothing else) between main's entry and its
# exit, over RUNS calls, are the routine's instructions a call, with the routines it calls. Its cycles are those instructions' by the Cortex-M4 TRM (derive.py's
# table: a branch taken or not as it went), the same timings roi estimate --price machine prices
# the firmware's own instructions with.
CM = os.path.join(derive.ROOT, 'contrib', 'cortex-m', 'mps2-an386')
ARM_ROUTINES = ('memcpy', 'memmove', 'memset', 'memcmp', 'strlen', 'strcpy', 'strcmp', 'strncmp', 'strchr',
                'strcat', 'strtol', 'strtoul', 'atoi', 'atol', 'sqrtf')


def arm_link(tmp, c, elf, opt):
    startup = os.path.join(tmp, 'startup.o')
    if not os.path.exists(startup):
        derive.run(['arm-none-eabi-gcc'] + derive.ARM_FLAGS + ['-O2', '-c', os.path.join(CM, 'startup.c'),
                                                              '-o', startup])
    derive.run(['arm-none-eabi-gcc'] + derive.ARM_FLAGS + [opt, '-w', c, startup, '-T', os.path.join(CM, 'mps2-an386.ld'),
               '-nostartfiles', '--specs=nano.specs', '--specs=rdimon.specs', '-lm', '-o', elf])


def arm_per_call(tmp, tag, name, src, opt):
    """(instructions, cycles) of one call of name in src (which calls it RUNS times), or None when
    the program does not call it."""
    c, elf, log = (os.path.join(tmp, tag + x) for x in ('.c', '.elf', '.log'))
    with open(c, 'w') as f:
        f.write(src)
    arm_link(tmp, c, elf, opt)
    code = {}
    for line in derive.run(['arm-none-eabi-objdump', '-d', '--no-show-raw-insn', elf]).splitlines():
        mm = re.match(r'\s*([0-9a-f]+):\s+(\S+)\s*(.*)$', line)
        if mm and not mm.group(2).startswith('.'):
            code[int(mm.group(1), 16)] = (mm.group(2), mm.group(3).split(';')[0].split('@')[0])
    derive.run(['qemu-system-arm', '-M', 'mps2-an386', '-display', 'none', '-serial', 'none', '-monitor', 'none',
                '-parallel', 'none', '-semihosting-config', 'enable=on,target=native', '-singlestep',
                '-d', 'exec,nochain', '-D', log, '-kernel', elf])
    pcs, inside = [], False
    with open(log) as f:
        for line in f:
            if not line.startswith('Trace'):
                continue
            fn = line.split()[-1]
            if fn == 'main':
                inside = True
            elif inside and fn == 'Reset_Handler':
                break
            if inside:
                pcs.append((int(line.split('[')[1].split('/')[1], 16), fn))
    os.remove(log)
    if not any(fn == name for _, fn in pcs):
        return None
    # (main calls nothing else: what runs outside it is the routine and what it calls)
    ins, cyc, prev_load = 0, 0.0, False
    for k, (pc, fn) in enumerate(pcs):
        if fn == 'main':
            continue
        m, ops = code[pc]
        cls, _ = derive.classify('arm', m, ops)
        nxt = pcs[k + 1][0] if k + 1 < len(pcs) else None
        size = min((a for a in code if a > pc), default=pc + 2) - pc
        cyc += derive.cost('arm', m, ops, cls, prev_load, taken=nxt is not None and nxt != pc + size)
        prev_load = cls == 'op' and derive.arm_base(m)[0] in derive.ARM_LOADS
        ins += 1
    return ins / RUNS, cyc / RUNS


def arm_measure(s, tmp):
    opt = s.get('opt', '-Os')
    src, _ = harness(s['decls'], s['body'], opt)
    r = arm_per_call(tmp, s['name'], s['name'], src, opt)
    if r is None:
        return None
    e = dict(routine=s['name'], cycles=round(r[1], 1), instructions=round(r[0], 2))
    notes = ['QEMU (mps2-an386), %d calls on typical operands, arm-none-eabi-gcc %s, newlib-nano; cycles: those '
             'instructions by the Cortex-M4 TRM' % (RUNS, opt)]
    if 'sweep' in s:
        xs, ys, zs = [], [], []
        for i, (v, decls, body) in enumerate(s['sweep']):
            src, _ = harness(decls, body, opt)
            y = arm_per_call(tmp, '%s-sweep%d' % (s['name'], i), s['name'], src, opt)
            if y is None:
                continue
            xs.append(v)
            ys.append(y[1])
            zs.append(y[0])
        if len(set(xs)) > 1:
            e['value'] = s['value']
            e['per_value'] = round(derive.slope(xs, ys), 3)
            e['per_value_instructions'] = round(derive.slope(xs, zs), 3)
            if s.get('typical') is None:
                mx = sum(xs) / len(xs)
                e['typical_value'] = round(mx, 2)
                e['cycles'] = round(sum(ys) / len(ys), 1)
                e['instructions'] = round(sum(zs) / len(zs), 2)
            else:
                e['typical_value'] = round(s['typical'], 2)
            notes.append('%s instructions and %s cycles per unit of %s: the slopes over %s = %g .. %g%s' % (
                e['per_value_instructions'], e['per_value'], s['value']['kind'], s['value']['kind'],
                min(xs), max(xs), '' if s['name'] in ('strtol', 'strtoul') else
                '; not exact per call: the routine takes other paths by the length\'s remainder and the pointers\' '
                'alignment%s, which no counter measures' % (', and stops where the data say'
                                                            if s['name'] in ('strlen', 'memcmp') else '')))
    e['note'] = '; '.join(notes)
    return e


def insert(path, entries):
    """Puts the routines into a model file as its "routines" member (replacing an old one), and
    leaves the rest of the file as it is."""
    with open(path) as f:
        text = f.read()
    m = json.loads(text)
    if 'routines' in m:
        # a routine measured again replaces its entry; the others stay (--only)
        again = set(e['routine'] for e in entries)
        entries = [e for e in m['routines'] if e['routine'] not in again] + entries
        m.pop('routines')
        m.pop('routines_source', None)
        # rewrite from the parsed document, keeping the other members' order
        text = json.dumps(m, indent=2) + '\n'
    body = ',\n    '.join(json.dumps(e) for e in entries)
    source = ('contrib/models/routines.py: simavr (cycle-exact) per call of each routine on typical operands, '
              'avr-gcc 5.4.0 and avr-libc; roi estimate --price machine prices calls into code without metadata '
              'by them') if m['arch'] == 'avr' else (
              'contrib/models/routines.py --target arm: the instructions QEMU (mps2-an386) runs per call of each '
              'routine on typical operands, arm-none-eabi-gcc and newlib-nano, and their Cortex-M4 TRM cycles '
              '(no cycle-exact Cortex-M simulator checks these); roi estimate --price machine prices calls into code '
              'without metadata by them')
    end = text.rstrip().rfind('}')
    text = text[:end].rstrip() + (',\n  "routines_source": %s,\n  "routines": [\n    %s\n  ]\n}\n'
                                  % (json.dumps(source), body))
    json.loads(text)
    with open(path, 'w') as f:
        f.write(text)


def cjson_value(v, depth):
    """v as cJSON prints it (the calibrated models' style): tabs, integers without a point."""
    if isinstance(v, dict):
        pad = '\t' * (depth + 1)
        return '{\n' + ',\n'.join('%s%s:\t%s' % (pad, json.dumps(k), cjson_value(x, depth + 1))
                                   for k, x in v.items()) + '\n' + '\t' * depth + '}'
    if isinstance(v, float) and v == int(v):
        return str(int(v))
    return json.dumps(v)


def update(path, entries):
    """Replaces each entry's routine in the model file where it has one, in the file's own layout
    (cJSON's tabs in the calibrated models, a line an entry in the derived ones), so that the rest
    of the file stays byte for byte; a model without the routine gets the whole table (insert)."""
    with open(path) as f:
        text = f.read()
    rest = []
    for e in entries:
        name = re.escape(json.dumps(e['routine']))
        tab = re.search(r'\{\n(\t+)"routine":\t%s,\n' % name, text)
        line = re.search(r'\{"routine": %s, [^\n]*\}' % name, text)
        if tab:
            depth = len(tab.group(1)) - 1
            # (its own closing brace, at its depth: not a nested "value"'s)
            end = text.index('\n' + '\t' * depth + '}', tab.end()) + depth + 2
            text = text[:tab.start()] + cjson_value(e, depth) + text[end:]
        elif line:
            text = text[:line.start()] + json.dumps(e) + text[line.end():]
        else:
            rest.append(e)
    json.loads(text)
    with open(path, 'w') as f:
        f.write(text)
    if rest:
        insert(path, rest)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--into', nargs='*', default=[], metavar='MODEL', help='AVR model files to write them into')
    ap.add_argument('--keep', metavar='DIR', help='keep the generated C and ELF files in DIR')
    ap.add_argument('--only', nargs='*', help='these routines alone')
    ap.add_argument('--target', choices=('avr', 'arm'), default='avr',
                    help='avr: cycles in simavr; arm: instructions in QEMU (Cortex-M4)')
    a = ap.parse_args()
    tmp = a.keep or tempfile.mkdtemp(prefix='roi-routines.')
    os.makedirs(tmp, exist_ok=True)
    entries = []
    try:
        for s in specs():
            if (a.only and s['name'] not in a.only) or (a.target == 'arm' and s['name'] not in ARM_ROUTINES):
                continue
            e = measure(s, tmp) if a.target == 'avr' else arm_measure(s, tmp)
            if e is None:
                print('routines: %s: the program does not call it (not measured)' % s['name'], file=sys.stderr)
                continue
            entries.append(e)
            print('%-14s %8.1f%s' % (e['routine'], e['cycles'], ('   + %g per %s (typical %g)' % (
                e['per_value'], e['value']['kind'], e['typical_value'])) if 'value' in e else ''))
    finally:
        if not a.keep:
            shutil.rmtree(tmp)
    for path in a.into:
        update(path, entries)
        print('wrote', path)


if __name__ == '__main__':
    main()
