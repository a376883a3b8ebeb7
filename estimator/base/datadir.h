/* base/datadir.h — where roi's own files are: the models, the calibration corpus, the plugins, the
 * Make and CMake fragments. Found from where this roi lies, so a source tree and an installed
 * tree (any PREFIX, or a DESTDIR staging copy) both work without a path compiled in. */
#ifndef ROI_DATADIR_H
#define ROI_DATADIR_H

/* The path of one of roi's files or folders: TREE (relative to the top of a source tree, for a roi
 * at TOP/build/bin/roi) or INSTALLED (relative to PREFIX, for a roi at PREFIX/bin/roi), whichever
 * exists; else INSTALLED under the prefix roi was built for (ROI_PREFIX). malloc'd; NULL when none
 * exists. */
char *roi_data_path(const char *tree, const char *installed);

#endif
