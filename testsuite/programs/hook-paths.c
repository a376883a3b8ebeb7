/* hook-paths.c — every way out of a function or a loop, for the region hooks (docs/regions.md).
   With every function and loop hooked, a run must leave each region it entered: the runtime
   reports exits that skip an open region and regions still open at exit, and the calls the hooks
   count must equal the entries the block counts give.

   By hand:
   - classify(x), x = 0..9: three returns (x < 3: 3 times, x < 7: 4, else 3); 10 calls.
   - find(key), key = 0..9, in a[] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3}: the loop (line 30) is left by
     the return inside it for keys 1 2 3 4 5 6 9 (7 times) and by its test for 0 7 8 (3 times);
     10 calls, 10 loop entries.
   - first_big(): the while loop (line 39) is left by break at a[5] = 9; 1 call, 1 entry.
   - grid(): the outer loop (line 50) runs for i = 0..3, entering the inner loop (line 51) 4
     times (i = 0..3) until goto leaves both at i = 3, j = 2: 1 outer entry, 4 inner entries.
   - fib(10): 177 calls (calls(n) = 1 + calls(n-1) + calls(n-2), calls(0) = calls(1) = 1).
   - main: 1 call; its loop (line 72) 1 entry, 10 iterations.  */
static const int a[10] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3};
volatile int sink;

static int __attribute__((noinline)) classify(int x)
{
	if (x < 3)
		return 0;
	if (x < 7)
		return 1;
	return 2;
}

static int __attribute__((noinline)) find(int key)
{
	for (int i = 0; i < 10; i++)
		if (a[i] == key)
			return i;
	return -1;
}

static int __attribute__((noinline)) first_big(void)
{
	int i = 0;
	while (i < 10) {
		if (a[i] > 8)
			break;
		i++;
	}
	return i;
}

static int __attribute__((noinline)) grid(void)
{
	int n = 0;
	for (int i = 0; i < 10; i++) {
		for (int j = 0; j < 10; j++) {
			if (i == 3 && j == 2)
				goto out;
			n++;
		}
	}
out:
	return n;
}

static int __attribute__((noinline)) fib(int n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

int main(void)
{
	int s = 0;

	for (int x = 0; x < 10; x++)
		s += classify(x) + find(x);
	s += first_big() + grid() + fib(10);
	sink = s;
	return 0;
}
