/* A dense switch executed 10 times (c = 0..9): cases 0..6 once each, the
   default three times.  Dense, so GCC keeps it as one multi-way jump (a jump
   table) at every -O level; a sparse switch would reach roi already lowered
   into comparisons and branches, and be counted as those.  */
volatile int out[8];

static void __attribute__((noinline)) dispatch(int c)
{
	switch (c) {
	case 0: out[0] = 1; break;
	case 1: out[1] = 2; break;
	case 2: out[2] = 3; break;
	case 3: out[3] = 5; break;
	case 4: out[4] = 7; break;
	case 5: out[5] = 11; break;
	case 6: out[6] = 13; break;
	default: out[7] = 17; break;
	}
}

int main(void)
{
	int s = 0;
	for (int c = 0; c < 10; c++)
		dispatch(c);
	for (int i = 0; i < 8; i++)
		s += out[i];
	return s - 59;
}
