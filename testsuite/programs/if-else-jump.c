/* The jump from the end of the then-arm past the else keeps the if's own
   location, which gcov does not count a second time (csmith seed 495 at -O0
   found it). By hand, with a = 1: f is called once and the condition on line 13
   evaluated once; the loop test on line 15 runs 4 times, its body 3 times; the
   else-arm on line 20 never runs.  */
volatile int a = 1, b;
static int f(int x)
{
	return x + 1;
}
int main(void)
{
	if (f(a) > 1 && a)
	{
		for (b = 0; b < 3; b++)
			a = a + 1;
	}
	else
	{
		b = 7;
	}
	return a == 4 ? 0 : 1;
}
