/* Loops whose trips GCC computes, each in a function of its own, and one it
   does not (t0216, t0405).  By hand, the stores to sink:
   - constant: i = 0..9, 10 stores;
   - upto (n trips): upto(0) none, upto(7) 7;
   - from_one (n - 1 trips, none for n <= 1): from_one(1) none, from_one(5) 4;
   - range (end - p trips): range(buf, buf) none, range(buf, buf + 100) 100;
   - wrap (an 8-bit count down that wraps): wrap(0) 256 turns, wrap(3) 3;
   - branchy (8 turns, each down one side of a branch): its result, 1 store;
   - with_break, also left by a break: buf[i] = 3i + 1 is 7 for i = 2, so
     with_break(20) stores for i = 0 and 1, with_break(2) for 0 and 1: 4.
   In all 10 + 7 + 4 + 100 + 259 + 1 + 4 = 385.  main's loop fills 300 bytes
   of buf.  */
volatile unsigned char sink;
unsigned char buf[300];

__attribute__((noinline)) void constant(void)
{
	for (int i = 0; i < 10; i++)
		sink = i;
}

__attribute__((noinline)) void upto(unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		sink = i;
}

__attribute__((noinline)) void from_one(unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		sink = i;
}

__attribute__((noinline)) void range(const unsigned char *p, const unsigned char *end)
{
	while (p != end)
		sink = *p++;
}

__attribute__((noinline)) void wrap(unsigned char c)
{
	do
		sink = c;
	while (--c);
}

__attribute__((noinline)) unsigned char branchy(unsigned char x)
{
	for (unsigned char bit = 0; bit < 8; bit++)
		if (x & 0x80)
			x = (unsigned char) (x << 1) ^ 7;
		else
			x = (unsigned char) (x << 1);
	return x;
}

__attribute__((noinline)) void with_break(unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (buf[i] == 7)
			break;
		sink = i;
	}
}

int main(void)
{
	for (int i = 0; i < 300; i++)
		buf[i] = (unsigned char) (i * 3 + 1);
	constant();
	upto(0);
	upto(7);
	from_one(1);
	from_one(5);
	range(buf, buf);
	range(buf, buf + 100);
	wrap(0);
	wrap(3);
	sink = branchy(0x5a);
	with_break(20);
	with_break(2);
	return 0;
}
