/* kernel-bytecode-vm: a tiny stack-machine interpreter, as in scripting or PLC firmware,
 * running a bytecode program that sums the Collatz step counts of 1..n, checked against
 * the same sum in C.  A dense switch on a u16 opcode and a second one on an int ALU code,
 * fields of a VM struct behind a pointer, small helpers returning bool.  */
#include <stdint.h>
#include <stdbool.h>

#define STACK 16
#define VARS 8
#define MAX_STEPS 20000u

enum { OP_HALT, OP_PUSH, OP_LOAD, OP_STORE, OP_JMP, OP_JZ, OP_JNZ, OP_ALU, OP_DUP, OP_DROP,
	OP_SWAP, OP_OVER, OP_SYS };
enum { A_ADD, A_SUB, A_AND, A_OR, A_XOR, A_LT, A_EQ, A_SHL1, A_SHR1, A_NEG };	/* binary, then unary */

#define I(op, arg) ((uint16_t) ((unsigned) (op) << 11 | ((unsigned) (arg) & 0x7ff)))

/* vars: 0 = n, 1 = x, 2 = steps, 3 = total, 4 = limit */
static const uint16_t collatz[] = {
	I(OP_PUSH, 1), I(OP_STORE, 0),
	/* 2: outer */
	I(OP_LOAD, 0), I(OP_STORE, 1), I(OP_PUSH, 0), I(OP_STORE, 2),
	/* 6: inner */
	I(OP_LOAD, 1), I(OP_PUSH, 1), I(OP_ALU, A_EQ), I(OP_JNZ, 31),
	I(OP_LOAD, 1), I(OP_PUSH, 1), I(OP_ALU, A_AND), I(OP_JZ, 23),
	I(OP_LOAD, 1), I(OP_DUP, 0), I(OP_DUP, 0), I(OP_ALU, A_ADD), I(OP_ALU, A_ADD),
	I(OP_PUSH, 1), I(OP_ALU, A_ADD), I(OP_STORE, 1), I(OP_JMP, 26),
	/* 23: even */
	I(OP_LOAD, 1), I(OP_ALU, A_SHR1), I(OP_STORE, 1),
	/* 26: count */
	I(OP_LOAD, 2), I(OP_PUSH, 1), I(OP_ALU, A_ADD), I(OP_STORE, 2), I(OP_JMP, 6),
	/* 31: done */
	I(OP_LOAD, 3), I(OP_LOAD, 2), I(OP_ALU, A_ADD), I(OP_STORE, 3),
	I(OP_LOAD, 2), I(OP_SYS, 1),
	I(OP_LOAD, 0), I(OP_PUSH, 1), I(OP_ALU, A_ADD), I(OP_DUP, 0), I(OP_STORE, 0),
	I(OP_LOAD, 4), I(OP_ALU, A_LT), I(OP_JNZ, 2),
	I(OP_LOAD, 3), I(OP_SYS, 2), I(OP_HALT, 0),
};

struct vm {
	int16_t stack[STACK];
	int16_t vars[VARS];
	uint8_t sp;
	uint16_t pc;
	uint16_t steps;
	uint16_t checksum;
	int16_t result;
	bool halted, failed;
};

volatile uint8_t in_limit = 12;
volatile uint32_t sink;

static bool push(struct vm *m, int16_t v)
{
	if (m->sp == STACK)
		return false;
	m->stack[m->sp++] = v;
	return true;
}

static bool pop(struct vm *m, int16_t *v)
{
	if (m->sp == 0)
		return false;
	*v = m->stack[--m->sp];
	return true;
}

static bool jump_ok(uint16_t target)
{
	return target < sizeof collatz / sizeof collatz[0];
}

static int16_t alu(int16_t code, int16_t a, int16_t b)
{
	switch (code) {
	case A_ADD:
		return (int16_t) (uint16_t) ((uint16_t) a + (uint16_t) b);
	case A_SUB:
		return (int16_t) (uint16_t) ((uint16_t) a - (uint16_t) b);
	case A_AND:
		return (int16_t) (a & b);
	case A_OR:
		return (int16_t) (a | b);
	case A_XOR:
		return (int16_t) (a ^ b);
	case A_SHL1:
		return (int16_t) (uint16_t) ((uint16_t) b << 1);
	case A_SHR1:
		return (int16_t) ((uint16_t) b >> 1);
	case A_LT:
		return a < b;
	case A_EQ:
		return a == b;
	case A_NEG:
		return (int16_t) (uint16_t) (0u - (uint16_t) b);
	default:
		return 0;
	}
}

/* one instruction; false when the machine stops */
static bool step(struct vm *m, const uint16_t *code)
{
	uint16_t insn = code[m->pc++];
	uint16_t op = insn >> 11;
	int16_t arg = (int16_t) ((int16_t) (insn << 5) >> 5);	/* signed 11-bit immediate */
	int16_t a = 0, b = 0;
	bool ok = true;

	switch (op) {
	case OP_HALT:
		m->halted = true;
		return false;
	case OP_PUSH:
		ok = push(m, arg);
		break;
	case OP_LOAD:
		ok = (uint16_t) arg < VARS && push(m, m->vars[arg]);
		break;
	case OP_STORE:
		ok = (uint16_t) arg < VARS && pop(m, &m->vars[arg]);
		break;
	case OP_JMP:
		ok = jump_ok((uint16_t) arg);
		m->pc = (uint16_t) arg;
		break;
	case OP_JZ:
	case OP_JNZ:
		ok = pop(m, &a) && jump_ok((uint16_t) arg);
		if ((a == 0) == (op == OP_JZ))
			m->pc = (uint16_t) arg;
		break;
	case OP_ALU:
		if (arg < A_SHL1)
			ok = pop(m, &b) && pop(m, &a);
		else
			ok = pop(m, &b);
		ok = ok && push(m, alu(arg, a, b));
		break;
	case OP_DUP:
		ok = pop(m, &a) && push(m, a) && push(m, a);
		break;
	case OP_DROP:
		ok = pop(m, &a);
		break;
	case OP_SWAP:
		ok = pop(m, &b) && pop(m, &a) && push(m, b) && push(m, a);
		break;
	case OP_OVER:
		ok = pop(m, &b) && pop(m, &a) && push(m, a) && push(m, b) && push(m, a);
		break;
	case OP_SYS:
		ok = pop(m, &a);
		if (arg == 1)
			m->checksum = (uint16_t) ((m->checksum << 3 | m->checksum >> 13) ^ (uint16_t) a);
		else
			m->result = a;
		break;
	default:
		ok = false;
		break;
	}
	m->steps++;
	if (!ok || m->steps == MAX_STEPS) {
		m->failed = true;
		return false;
	}
	return true;
}

/* the same sum in C */
static int16_t collatz_total(uint8_t limit)
{
	int16_t total = 0;
	uint8_t n;

	for (n = 1; n < limit; n++) {
		uint16_t x = n;

		while (x != 1) {
			x = x & 1 ? (uint16_t) (3 * x + 1) : x >> 1;
			total++;
		}
	}
	return total;
}

int main(void)
{
	struct vm m = {{0}, {0}, 0, 0, 0, 0, 0, false, false};
	uint8_t limit = in_limit;

	m.vars[4] = limit;
	while (step(&m, collatz))
		;

	sink = (uint32_t) m.checksum << 16 | (uint16_t) m.result;
	if (!m.halted || m.failed || m.result != collatz_total(limit))
		sink = ~sink;
	return 0;
}
