/* A label that is jumped to both from before it and from inside the loop that
   follows: at -O0 GCC splits the label off into a block of its own after gcov
   wrote its graph (csmith seed 404 at -O0 found it). By hand, with g = 1: the
   goto on line 14 runs once, the fall-through into the label never, so gcov
   shows the label's line 15 as never run; "n += i" runs 4 times (once from
   line 14, 3 times from line 19, with i = 1, 2, 3: n = 6); the loop test on
   line 17 runs 7 times (once on each of the first three entries, 4 times on
   the last), "if (++i < 4)" 6 times, the goto on line 19 3 times.  */
volatile int g = 1, n;
int main(void)
{
	int i = 0, k;
	if (g)
		goto top;
top:
	n += i;
	for (k = 0; k < 3; k++) {
		if (++i < 4)
			goto top;
	}
	return n == 6 ? 0 : 1;
}
