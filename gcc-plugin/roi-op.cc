/* roi-op.cc — the words of the operation vocabulary (roi-ops.def), for
   ROI_KIND and ROI_ACCESS (roi-op.h).  */
#include "roi-op.h"

const char *const roi_kind_words[ROI_NKINDS] = {
#define DEF_ROI_KIND(NAME, WORD, ORIGIN) WORD,
#define DEF_ROI_ACCESS(NAME, WORD)
#include "roi-ops.def"
#undef DEF_ROI_KIND
#undef DEF_ROI_ACCESS
};

const char *const roi_access_words[ROI_NACCESSES] = {
#define DEF_ROI_KIND(NAME, WORD, ORIGIN)
#define DEF_ROI_ACCESS(NAME, WORD) WORD,
#include "roi-ops.def"
#undef DEF_ROI_KIND
#undef DEF_ROI_ACCESS
};
