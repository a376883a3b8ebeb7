/* A variadic function called 3 times, with 1, 2 and 3 variable arguments:
   sum(1, 1) + sum(2, 2, 3) + sum(3, 4, 5, 6) = 1 + 5 + 15 = 21.  Its loop
   body (one va_arg, one add) runs 1 + 2 + 3 = 6 times.  */
#include <stdarg.h>

static int __attribute__((noinline)) sum(int count, ...)
{
	va_list ap;
	int s = 0;
	va_start(ap, count);
	for (int k = 0; k < count; k++)
		s += va_arg(ap, int);
	va_end(ap);
	return s;
}

int main(void)
{
	return sum(1, 1) + sum(2, 2, 3) + sum(3, 4, 5, 6) - 21;
}
