/* roi-region-simavr.c — region hooks for an AVR firmware run by 'roi run'
 * (simavr).  Compile it into the firmware, without the plugin:
 *
 *     avr-gcc -mmcu=atmega32u4 -Os -c runtime/ports/roi-region-simavr.c
 *
 * Each hook writes the region's address to GPIOR1 (low byte) and GPIOR2
 * (high byte), then an event code to GPIOR0: 1 enter, 2 exit.  The runner
 * watches writes to GPIOR0 and stamps each with simavr's cycle counter, so
 * the measurement itself adds no error: what the hooks cost is a constant per
 * region entry (docs/regions.md gives it and 'roi report' subtracts it).
 * The general-purpose I/O registers exist on every megaAVR with GPIOR0..2;
 * a firmware that uses them itself cannot use this port.  */
#include <avr/io.h>
#include <stdint.h>

struct roi_region;

#define ROI_EVENT_ENTER 1
#define ROI_EVENT_EXIT 2

static inline void __attribute__((always_inline))
roi_event (const struct roi_region *region, uint8_t event)
{
	uint16_t id = (uint16_t) region;
	GPIOR1 = (uint8_t) id;
	GPIOR2 = (uint8_t) (id >> 8);
	GPIOR0 = event;
}

void __roi_region_enter (struct roi_region *region)
{
	roi_event (region, ROI_EVENT_ENTER);
}

void __roi_region_exit (struct roi_region *region)
{
	roi_event (region, ROI_EVENT_EXIT);
}
