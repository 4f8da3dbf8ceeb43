/** Charts as inline SVG (html.h): fixed sizes, so the same data gives the
 * same bytes. Every mark carries classes and data- attributes naming what it
 * shows (tests and readers can find "the with-skill bar of model X"), and a
 * <title> with its figures for a tooltip. Text is escaped. */
#ifndef UPK_REPORT_CHART_H
#define UPK_REPORT_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include "report/html.h"

enum { UPK_CHART_SERIES_MAX = 4 };

/** One bar: a value with an optional interval (NaN lo/hi: none). A NaN
 * value draws no bar, only "-" as its label. */
typedef struct upk_bar {
  double value, lo, hi;
  const char *note; /* shown after the figure, e.g. "12/20"; may be NULL */
} upk_bar;

/** One row group: a name (a model, an attempt) and one bar per series. */
typedef struct upk_bar_group {
  const char *name;
  upk_bar bars[UPK_CHART_SERIES_MAX];
  bool marked; /* outlined and labelled `mark_label` (the kept attempt) */
} upk_bar_group;

/** Horizontal grouped bars. The axis runs from `min` to `max`; with
 * `percent` figures are rates shown as percent, else plain numbers with
 * `unit`. Series are coloured s0..s3 (html.h's stylesheet). */
typedef struct upk_bar_chart {
  const char *id; /* the <svg>'s id and data-chart */
  const char *title;
  const char *series[UPK_CHART_SERIES_MAX]; /* names; also data-series (slugged) */
  size_t n_series;
  const upk_bar_group *groups;
  size_t n_groups;
  double min, max;
  bool percent;
  const char *unit;       /* after plain numbers; may be NULL */
  bool whole;             /* plain numbers without decimals (token counts) */
  unsigned first_colour;  /* series i is coloured s<first_colour + i> */
  const char *mark_label; /* for marked groups; may be NULL */
} upk_bar_chart;

void upk_chart_bars(upk_html *h, const upk_bar_chart *c);

/** Columns over a numeric x (block sizes): one per point, coloured by its
 * class (a limiter name, slugged), the `mark` point outlined. */
typedef struct upk_column {
  int x;
  double value; /* 0..max */
  const char *cls;
} upk_column;

typedef struct upk_column_chart {
  const char *id, *title, *x_label, *y_label;
  const upk_column *cols;
  size_t n;
  double max;
  int mark_x; /* the column to outline and label; 0: none */
  const char *mark_label;
} upk_column_chart;

void upk_chart_columns(upk_html *h, const upk_column_chart *c);

/** A legend line: a swatch of class s<first + i> and the name, per series. */
void upk_chart_legend(upk_html *h, const char *const *names, size_t n, unsigned first);

/** `name` as a class or data- value: lower case letters, digits and '-'. */
void upk_slug(const char *name, char *out, size_t cap);

#endif
