/* SVG charts (chart.h). Geometry is fixed: a label column, a plot, a column
 * of figures; every coordinate printed with one decimal. */
#include "report/chart.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum {
  WIDTH = 760,
  LABEL_W = 200, /* group names */
  FIGS_W = 190,  /* figures right of the plot */
  TOP = 30,
  BAR_H = 14,
  BAR_GAP = 3,
  GROUP_GAP = 12,
  NAME_MAX = 30, /* bytes of a name shown; the whole name is in the tooltip */
};

void upk_slug(const char *name, char *out, size_t cap) {
  size_t n = 0;
  for (const char *p = name ? name : ""; *p && n + 1 < cap; p++) {
    char c = *p;
    if (c >= 'A' && c <= 'Z')
      c = (char)(c - 'A' + 'a');
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (ok || (n && out[n - 1] != '-'))
      out[n++] = ok ? c : '-';
  }
  while (n && out[n - 1] == '-')
    n--;
  out[n] = '\0';
}

static void svg_begin(upk_html *h, const char *id, const char *cls, int w, double hgt,
                      const char *title) {
  upk_html_rawf(h, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart %s\" id=\"", cls);
  upk_html_text(h, id);
  upk_html_raw(h, "\" data-chart=\"");
  upk_html_text(h, id);
  upk_html_rawf(h,
                "\" viewBox=\"0 0 %d %.1f\" width=\"%d\" height=\"%.1f\" role=\"img\" "
                "aria-label=\"",
                w, hgt, w, hgt);
  upk_html_text(h, title);
  upk_html_raw(h, "\">\n<title>");
  upk_html_text(h, title);
  upk_html_raw(h, "</title>\n");
}

static void text_at(upk_html *h, double x, double y, const char *anchor, const char *cls,
                    const char *text) {
  upk_html_rawf(h, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s%s>", x, y, anchor,
                cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
  upk_html_text(h, text);
  upk_html_raw(h, "</text>\n");
}

static void line(upk_html *h, double x1, double y1, double x2, double y2, const char *cls) {
  upk_html_rawf(h, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cls,
                x1, y1, x2, y2);
}

/* ---- horizontal bars ---------------------------------------------------- */

typedef struct {
  const upk_bar_chart *c;
  double x0, x1; /* the plot */
} bar_geo;

static double xpos(const bar_geo *g, double v) {
  double span = g->c->max - g->c->min;
  double t = span > 0 ? (v - g->c->min) / span : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return g->x0 + t * (g->x1 - g->x0);
}

static void figure(const upk_bar_chart *c, double v, char *buf, size_t len) {
  if (!isfinite(v))
    snprintf(buf, len, "-");
  else if (c->percent)
    upk_fmt_pct(buf, len, v, c->min < 0);
  else
    snprintf(buf, len, c->whole ? "%.0f%s%s" : "%.4g%s%s", v, c->unit ? " " : "",
             c->unit ? c->unit : "");
}

static void axis(upk_html *h, const bar_geo *g, double bottom) {
  for (int i = 0; i <= 4; i++) {
    double v = g->c->min + (g->c->max - g->c->min) * i / 4, x = xpos(g, v);
    char buf[48];
    figure(g->c, v, buf, sizeof buf);
    line(h, x, TOP - 6, x, bottom, "axis");
    text_at(h, x, TOP - 10, "middle", "muted", buf);
  }
  if (g->c->min < 0 && g->c->max > 0)
    line(h, xpos(g, 0), TOP - 6, xpos(g, 0), bottom, "zero");
}

static void error_bar(upk_html *h, const bar_geo *g, const upk_bar *b, double y, const char *s) {
  if (!isfinite(b->lo) || !isfinite(b->hi))
    return;
  double lo = xpos(g, b->lo), hi = xpos(g, b->hi), mid = y + BAR_H / 2.0;
  upk_html_rawf(h, "<g class=\"errbar\" data-series=\"%s\" data-lo=\"%.4f\" data-hi=\"%.4f\">", s,
                b->lo, b->hi);
  line(h, lo, mid, hi, mid, "err");
  line(h, lo, y + 2, lo, y + BAR_H - 2, "err");
  line(h, hi, y + 2, hi, y + BAR_H - 2, "err");
  upk_html_raw(h, "</g>\n");
}

static void one_bar(upk_html *h, const bar_geo *g, const upk_bar_group *grp, size_t i, double y) {
  const upk_bar_chart *c = g->c;
  const upk_bar *b = &grp->bars[i];
  char s[64], fig[48], lo[48], hi[48];
  upk_slug(c->series[i], s, sizeof s);
  figure(c, b->value, fig, sizeof fig);
  if (isfinite(b->value)) {
    double base = xpos(g, c->min < 0 ? 0 : c->min), end = xpos(g, b->value);
    double x = base < end ? base : end, w = fabs(end - base);
    upk_html_rawf(h,
                  "<rect class=\"bar s%zu\" data-series=\"%s\" data-value=\"%.4f\" x=\"%.1f\" "
                  "y=\"%.1f\" width=\"%.1f\" height=\"%d\"><title>",
                  i + c->first_colour, s, b->value, x, y, w < 1 ? 1.0 : w, BAR_H);
    upk_html_textf(h, "%s, %s: %s", grp->name, c->series[i], fig);
    upk_html_raw(h, "</title></rect>\n");
    error_bar(h, g, b, y, s);
  }
  char text[200];
  if (isfinite(b->lo) && isfinite(b->hi)) {
    figure(c, b->lo, lo, sizeof lo);
    figure(c, b->hi, hi, sizeof hi);
    snprintf(text, sizeof text, "%s [%s, %s]%s%s", fig, lo, hi, b->note ? " " : "",
             b->note ? b->note : "");
  } else {
    snprintf(text, sizeof text, "%s%s%s", fig, b->note ? " " : "", b->note ? b->note : "");
  }
  text_at(h, g->x1 + 10, y + BAR_H - 3, "start", "fig", text);
}

static double group_height(const upk_bar_chart *c) {
  return (double)c->n_series * BAR_H + (double)(c->n_series - 1) * BAR_GAP;
}

void upk_chart_bars(upk_html *h, const upk_bar_chart *c) {
  bar_geo g = {c, LABEL_W + 10, WIDTH - FIGS_W};
  double gh = group_height(c), height = TOP + (double)c->n_groups * (gh + GROUP_GAP) + 4;
  svg_begin(h, c->id, "bars", WIDTH, height, c->title);
  axis(h, &g, height - 4);
  double y = TOP;
  for (size_t k = 0; k < c->n_groups; k++) {
    const upk_bar_group *grp = &c->groups[k];
    upk_html_raw(h, "<g class=\"group\" data-group=\"");
    upk_html_text(h, grp->name);
    upk_html_rawf(h, "\"%s>\n<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" class=\"name\">",
                  grp->marked ? " data-marked=\"true\"" : "", LABEL_W, y + gh / 2 + 4);
    upk_html_text_n(h, grp->name, NAME_MAX);
    if (grp->marked && c->mark_label) {
      upk_html_raw(h, " \xE2\x98\x85 ");
      upk_html_text(h, c->mark_label);
    }
    upk_html_raw(h, "<title>");
    upk_html_text(h, grp->name);
    upk_html_raw(h, "</title></text>\n");
    if (grp->marked)
      upk_html_rawf(h,
                    "<rect class=\"kept\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
                    g.x0 - 4, y - 3, g.x1 - g.x0 + 8, gh + 6);
    for (size_t i = 0; i < c->n_series; i++)
      one_bar(h, &g, grp, i, y + (double)i * (BAR_H + BAR_GAP));
    upk_html_raw(h, "</g>\n");
    y += gh + GROUP_GAP;
  }
  upk_html_raw(h, "</svg>\n");
  upk_chart_legend(h, c->series, c->n_series, c->first_colour);
}

void upk_chart_legend(upk_html *h, const char *const *names, size_t n, unsigned first) {
  upk_html_raw(h, "<div class=\"legend\">");
  for (size_t i = 0; i < n; i++) {
    upk_html_rawf(h, "<span><i class=\"sw s%zu\"></i>", i + first);
    upk_html_text(h, names[i]);
    upk_html_raw(h, "</span>");
  }
  upk_html_raw(h, "</div>\n");
}

/* ---- columns ------------------------------------------------------------ */

enum { COL_LEFT = 50, COL_PLOT_H = 180, COL_BOTTOM = 40 };

void upk_chart_columns(upk_html *h, const upk_column_chart *c) {
  double height = TOP + COL_PLOT_H + COL_BOTTOM, base = TOP + COL_PLOT_H;
  double step = c->n ? (double)(WIDTH - COL_LEFT - 20) / (double)c->n : 0;
  svg_begin(h, c->id, "columns", WIDTH, height, c->title);
  for (int i = 0; i <= 4; i++) {
    double y = base - COL_PLOT_H * i / 4.0;
    char buf[32];
    snprintf(buf, sizeof buf, "%.0f", c->max * i / 4);
    line(h, COL_LEFT, y, WIDTH - 20, y, "axis");
    text_at(h, COL_LEFT - 6, y + 4, "end", "muted", buf);
  }
  text_at(h, 12, TOP - 12, "start", "muted", c->y_label);
  text_at(h, WIDTH / 2.0, height - 6, "middle", "muted", c->x_label);
  for (size_t i = 0; i < c->n; i++) {
    const upk_column *col = &c->cols[i];
    double v = col->value < 0 ? 0 : col->value > c->max ? c->max : col->value;
    double hh = c->max > 0 ? COL_PLOT_H * v / c->max : 0, x = COL_LEFT + step * (double)i;
    char cls[48], label[24];
    upk_slug(col->cls, cls, sizeof cls);
    upk_html_rawf(h,
                  "<rect class=\"col %s\" data-x=\"%d\" data-value=\"%.1f\" x=\"%.1f\" y=\"%.1f\" "
                  "width=\"%.1f\" height=\"%.1f\"><title>",
                  cls, col->x, col->value, x + 1, base - hh, step - 2, hh);
    upk_html_textf(h, "%d: %.0f (%s)", col->x, col->value, col->cls ? col->cls : "");
    upk_html_raw(h, "</title></rect>\n");
    snprintf(label, sizeof label, "%d", col->x);
    if (c->n <= 16 || i % 4 == 3)
      text_at(h, x + step / 2, base + 14, "middle", "muted", label);
    if (col->x == c->mark_x) {
      upk_html_rawf(h, "<g class=\"marked\" data-x=\"%d\">", col->x);
      line(h, x + step / 2, TOP - 4, x + step / 2, base, "mark");
      text_at(h, x + step / 2 + (i > c->n / 2 ? -4 : 4), TOP + 8, i > c->n / 2 ? "end" : "start",
              "mark-label", c->mark_label);
      upk_html_raw(h, "</g>\n");
    }
  }
  upk_html_raw(h, "</svg>\n");
}
