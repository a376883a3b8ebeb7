/* && and || evaluate their right operand only when needed; gcov's branch
   counts could not be mapped back to them, block counts can.
   For i = 0..7:  probe(i & 1) runs 8 times, probe(i & 2) only for odd i (4);
   probe(i & 4) runs 8 times, probe(i == 0) only when i & 4 is 0 (4).
   So probe is called 24 times; n ends at 2 (i = 3, 7) + 5 (i = 0, 4..7).  */
static int __attribute__((noinline)) probe(int v)
{
	return v;
}

int main(void)
{
	int n = 0;
	for (int i = 0; i < 8; i++) {
		if (probe(i & 1) && probe(i & 2))
			n++;
		if (probe(i & 4) || probe(i == 0))
			n++;
	}
	return n - 7;
}
