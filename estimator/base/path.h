/* base/path.h — file names. */
#ifndef ROI_PATH_H
#define ROI_PATH_H

/* The part of PATH after its last '/' (all of it when there is none). */
const char *roi_base_name(const char *path);

#endif
