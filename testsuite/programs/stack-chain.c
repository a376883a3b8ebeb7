/* A chain main > a > b > c with local arrays, c waiting for a timer interrupt whose handler calls g:
 * the deepest path runs, the interrupt on top of it (t0485-stack.sh, t0487-stack-measured.sh). */
#include <avr/interrupt.h>
#include <avr/io.h>

#define KEEP __attribute__((noinline, noclone))

volatile unsigned char sink, ticks;
unsigned char plain_leaf(unsigned char v);

KEEP void c(unsigned char v)
{
	volatile unsigned char buf[40];
	buf[v & 31] = v;
	TIMSK0 = 1 << TOIE0;
	while (!ticks)
		;
	TIMSK0 = 0;
	sink = buf[v & 31];
}

KEEP void b(unsigned char v)
{
	volatile unsigned char buf[20];
	buf[v & 15] = v;
	c(v + 1);
	sink = buf[v & 15];
}

KEEP void a(unsigned char v)
{
	volatile unsigned char buf[10];
	buf[v & 7] = v;
	b(v + 1);
	sink = buf[v & 7] + plain_leaf(v);
}

KEEP void g(void)
{
	volatile unsigned char buf[6];
	buf[ticks & 3] = ticks;
	sink = buf[ticks & 3];
}

ISR(TIMER0_OVF_vect)
{
	g();
	ticks++;
}

int main(void)
{
	TCCR0B = 1 << CS00;
	sei();
	a(3);
	cli();
	return 0;
}
