/* 64-bit integer and float arithmetic keep their own types:
   10 iterations of one long long multiply, one double add, one float
   multiply, one unsigned long long shift.  */
volatile long long ll = 3;
volatile double d = 0.5;
volatile float f = 1.5f;
volatile unsigned long long u = 1;

int main(void)
{
	for (int i = 0; i < 10; i++) {
		ll = ll * 7;
		d = d + 0.25;
		f = f * 2.0f;
		u = u << 1;
	}
	return u == 1024 ? 0 : 1;
}
