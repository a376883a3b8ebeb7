/* report/tree.h — roi report's own outputs (docs/report.md): one run's hierarchy (price/hier.h),
 * function → loop nest → line, with each level's cost and its shares of the level above and of
 * the whole, the measured region times beside the estimates where hooks ran, and the filter lines
 * --suggest proposes for the next level down; as text (tree_text.c) and as JSON (tree_json.c). */
#ifndef ROI_REPORT_TREE_H
#define ROI_REPORT_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "input/counts.h"
#include "price/hier.h"
#include "report/report.h"

/* What both outputs show of one run. */
struct roi_tree_report {
	const struct roi_hier *h;
	const struct roi_counts *c;
	const char *unit;               /* time unit of the measurements */
	bool measured;                  /* some region ran: the measured columns are shown */
	size_t top;                     /* --top: rows shown per level; 0 for all */
	const struct roi_measured *meas;        /* --measured-profile: its figures beside; NULL: none */
};

/* The whole tree, or (focus) the nfocus nodes --region focus_id names and what is inside them. */
void roi_tree_text(FILE *out, const struct roi_tree_report *r, const struct roi_source *src, struct roi_node **focus,
		  size_t nfocus, const char *focus_id);
cJSON *roi_tree_json(const struct roi_tree_report *r, const struct roi_source *src, struct roi_node **focus, size_t nfocus,
		     const char *focus_id, cJSON *suggest);

/* roi_hier_suggest's answer: filter lines with '#' comments that say why, or the JSON "suggest"
 * object. */
void roi_suggest_text(FILE *out, const struct roi_tree_report *r, const struct roi_node *target,
		      const struct roi_suggestion *s, size_t n, enum roi_suggest_why why);
cJSON *roi_suggest_json(const struct roi_hier *h, const struct roi_node *target, const struct roi_suggestion *s, size_t n,
			enum roi_suggest_why why);

#endif
