/* roi-region-timer1.c — region hooks for an AVR on real hardware: inclusive
 * cycles from Timer1 running at the CPU clock (prescaler 1), extended to 32
 * bits by counting its overflows, accumulated into the region descriptors.
 * Read them with a debugger or send them out yourself.
 *
 *     avr-gcc -mmcu=atmega32u4 -Os -c runtime/ports/roi-region-timer1.c
 *
 * Resolution: one CPU cycle (62.5 ns at 16 MHz); a region is measured
 * correctly as long as it lasts less than 2^32 cycles (268 s at 16 MHz).
 * The port owns Timer1 and its overflow interrupt, and enables interrupts
 * at the first enter.  */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <stdint.h>

struct roi_region {             /* runtime/roi.h, with AVR's 16-bit pointers */
	uint64_t unit;
	uint32_t index;
	uint32_t kind;
	struct roi_region *next;
	uint64_t calls;
	uint64_t total;
	uint64_t inner;             /* hook enters while it was open */
};

#ifndef ROI_TIMER1_DEPTH
#define ROI_TIMER1_DEPTH 8
#endif

static volatile uint16_t overflows;
static struct {
	struct roi_region *region;
	uint32_t start;
	uint32_t entered;           /* enters up to and with this one */
} stack[ROI_TIMER1_DEPTH];
static uint8_t depth, started;
static uint32_t entered;

ISR (TIMER1_OVF_vect)
{
	overflows++;
}

/* The 32-bit time: overflows and TCNT1 read consistently.  */
static uint32_t now (void)
{
	uint8_t sreg = SREG;
	cli ();
	uint16_t low = TCNT1;
	uint16_t high = overflows;
	if ((TIFR1 & _BV (TOV1)) && low < 0x8000)
		high++;                     /* overflowed after cli, before the read */
	SREG = sreg;
	return ((uint32_t) high << 16) | low;
}

void __roi_region_enter (struct roi_region *region)
{
	if (!started) {
		TCCR1A = 0;
		TCCR1B = _BV (CS10);        /* clk/1 */
		TIMSK1 |= _BV (TOIE1);
		started = 1;
		sei ();
	}
	region->calls++;
	entered++;
	if (depth < ROI_TIMER1_DEPTH) {
		stack[depth].region = region;
		stack[depth].entered = entered;
		stack[depth].start = now ();
		depth++;
	}
}

void __roi_region_exit (struct roi_region *region)
{
	uint32_t t = now ();

	if (!depth || stack[depth - 1].region != region)
		return;
	depth--;
	for (uint8_t i = 0; i < depth; i++)
		if (stack[i].region == region)
			return;
	region->total += t - stack[depth].start;
	region->inner += entered - stack[depth].entered;
}
