/* roi-descriptor.h — what the host runtime reads of a counted unit: the
 * functions' descriptors and the registering constructor (roi-descriptor.cc).  */
#ifndef ROI_DESCRIPTOR_H
#define ROI_DESCRIPTOR_H

#include "gcc-common.h"

/* The descriptor of the FN_INDEXth counted function: its CHECKSUM and its
   N COUNTERS (runtime=host only).  */
void roi_descriptor_create (unsigned fn_index, unsigned checksum, unsigned n, tree counters);
/* The unit's constructor that registers its descriptors (runtime=host only,
   once, before the IPA passes).  */
void roi_constructor_create (void);
/* A new declaration of PREFIX ("__start_", "__stop_") roi_fn_<unit>, the
   bounds the linker gives the descriptors' section (weak: null when it is
   empty).  */
tree roi_descriptor_section_bound (const char *prefix);

#endif /* ROI_DESCRIPTOR_H */
