/* for, while and do-while with break and continue.  The counters a, b, c have
   types used nowhere else, so the executed adds of each type count one
   statement each:
   - for: i = 0..10 tested (11 tests, i < 100), break at i == 10; continue for
     odd i; a++ (unsigned char) for even i in 0..8: 5 times.
   - while: tested for i = 0..7 (8 tests), continue when i becomes 3;
     b++ (unsigned short) 6 times.
   - do-while: body 4 times, test 4 times; c++ (unsigned long long) 4 times.  */
unsigned char a;
unsigned short b;
unsigned long long c;

int main(void)
{
	int i;
	for (i = 0; i < 100; i++) {
		if (i == 10)
			break;
		if (i & 1)
			continue;
		a++;
	}
	i = 0;
	while (i < 7) {
		i++;
		if (i == 3)
			continue;
		b++;
	}
	i = 0;
	do {
		c++;
		i++;
	} while (i < 4);
	return (a != 5) | (b != 6) | (c != 4);
}
