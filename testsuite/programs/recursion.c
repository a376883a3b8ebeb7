/* fib(10) calls fib 177 times (calls(n) = 1 + calls(n-1) + calls(n-2),
   calls(0) = calls(1) = 1); 88 of the calls have n >= 2 and add.  */
static int __attribute__((noinline)) fib(int n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

int main(void)
{
	return fib(10) - 55;
}
