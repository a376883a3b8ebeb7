/* One switch executed 10 times (c = 0..9), through a noinline function so its
   call count is visible.  Results: 10 + 20 + 20 + 70 and six defaults of -1,
   so s = 114.  */
static int __attribute__((noinline)) classify(int c)
{
	switch (c) {
	case 0: return 10;
	case 1:
	case 2: return 20;
	case 7: return 70;
	default: return -1;
	}
}

int main(void)
{
	int s = 0;
	for (int c = 0; c < 10; c++)
		s += classify(c);
	return s - 114;
}
