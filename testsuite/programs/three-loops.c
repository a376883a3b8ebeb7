/* three-loops.c — the seed's "varying loop runtimes" example (its Listing 5.1) in C: three loops
   in main of very different cost, the expensive one through a call.

   Costs by hand, in block executions (which do not depend on how GCC lowers the lines):
   - loop A, line 28: 10000 iterations, one volatile store each; header 10001 times.
   - loop B, line 30: 10 iterations, one volatile load and store each; header 11 times.
   - loop C, line 32: 1000 iterations, each calls mix() (1000 calls), whose loop (line 19) runs
     1000 times per call: 1000000 iterations of one u32 multiply and two adds; its header runs
     1001 times per call, 1001000 in all. The volatile ^= is 1000 loads and 1000 stores.
   So C costs about a thousand times A, and A about a thousand times B: a report must rank
   them C, A, B, with C's share of main above 99%; measured by hooks, C takes longest too.  */
volatile unsigned sink;

static unsigned __attribute__((noinline)) mix(unsigned x)
{
	unsigned h = x;
	unsigned k;

	for (k = 0; k < 1000; k++)
		h = h * 31u + k;
	return h;
}

int main(void)
{
	int i;

	for (i = 0; i < 10000; i++)
		sink = (unsigned)i;
	for (i = 0; i < 10; i++)
		sink += 1u;
	for (i = 0; i < 1000; i++)
		sink ^= mix((unsigned)i);
	return 0;
}
