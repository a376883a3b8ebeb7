/* Unit a: a static helper named like the one in b.c; called 3 times.  */
#include <stdio.h>
#include <string.h>

static int __attribute__((noinline)) helper(int v)
{
	return v + 1;
}

int from_a(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += helper(i);
	return s;		/* 1 + 2 + 3 = 6 for n = 3 */
}
