/* Calls through a function pointer: 6 indirect calls; even i reach twice()
   (3 calls), odd i reach thrice() (3 calls); s = 2*(0+2+4) + 3*(1+3+5) = 39.  */
static int __attribute__((noinline)) twice(int v) { return 2 * v; }
static int __attribute__((noinline)) thrice(int v) { return 3 * v; }

int (*volatile table[2])(int) = { twice, thrice };

int main(void)
{
	int s = 0;
	for (int i = 0; i < 6; i++)
		s += table[i & 1](i);
	return s - 39;
}
