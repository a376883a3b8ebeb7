/* machine/thumb.c — Thumb-2 instructions decoded and timed (isa.h). */
#include <string.h>

#include "machine/isa.h"

void roi_thumb_decode(const uint8_t *code, size_t avail, uint64_t addr, struct roi_thumb_state *st,
		      struct roi_minsn *in)
{
	(void)code;
	(void)avail;
	(void)st;
	memset(in, 0, sizeof *in);
	in->addr = addr;
	in->size = 2;
	in->cls = ROI_MI_STOP;
	in->name = "?";
}
