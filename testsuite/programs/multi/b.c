/* Unit b: its own static helper, called 5 times.  */
#include <stdlib.h>

static int __attribute__((noinline)) helper(int v)
{
	return v * 2;
}

int from_b(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += helper(i);
	return s;		/* 0 + 2 + 4 + 6 + 8 = 20 for n = 5 */
}
