/* The kernel report (report.h): the resources table, occupancy by block size
 * per kernel with the binding limit marked, and a GPU run's timing. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart.h"
#include "report/kernel_name.h"
#include "report/report.h"
#include "common/xalloc.h"

static void meta(upk_html *h, const upk_kernel_report *r) {
  char buf[64];
  const char *rows[][2] = {
      {"file", r->file}, {"arch", r->arch}, {"backend", r->backend}, {"toolkit", r->toolkit}};
  upk_html_raw(h, "<dl class=\"meta\">\n");
  for (size_t i = 0; i < 4; i++) {
    upk_html_elem(h, "dt", NULL, rows[i][0]);
    upk_html_elem(h, "dd", NULL, rows[i][1] ? rows[i][1] : "-");
  }
  snprintf(buf, sizeof buf, "%.1f ms", r->compile_ms);
  upk_html_elem(h, "dt", NULL, "compile");
  upk_html_elem(h, "dd", NULL, buf);
  snprintf(buf, sizeof buf, "%zu error%s, %zu warning%s", r->errors, r->errors == 1 ? "" : "s",
           r->warnings, r->warnings == 1 ? "" : "s");
  upk_html_elem(h, "dt", NULL, "diagnostics");
  upk_html_elem(h, "dd", NULL, buf);
  upk_html_raw(h, "</dl>\n");
}

/* Each kernel's group: the index of the first kernel of its template (its own index when it is
 * no template instance or the first of its template). O(n^2) at worst, once per report. */
static size_t *groups_of(const upk_kernel_report *r) {
  size_t *g = upk_xcalloc(r->n_kernels + 1, sizeof *g);
  for (size_t i = 0; i < r->n_kernels; i++) {
    const char *name = r->kernels[i].name ? r->kernels[i].name : "";
    size_t bn, rn;
    const char *b = upk_kernel_base_name(name, &bn);
    g[i] = i;
    for (size_t j = 0; j < i && strchr(name, '<'); j++) {
      const char *other = r->kernels[j].name ? r->kernels[j].name : "";
      const char *rb = upk_kernel_base_name(other, &rn);
      if (g[j] == j && strchr(other, '<') && rn == bn && !memcmp(rb, b, bn)) {
        g[i] = j;
        break;
      }
    }
  }
  return g;
}

/* A template's instances folded: the largest figures, the lowest occupancy (its kernel). */
typedef struct folded {
  upk_kr_kernel max;
  size_t worst, count;
} folded;

static folded fold_group(const upk_kernel_report *r, const size_t *grp, size_t g) {
  folded f = {.max = r->kernels[g], .worst = g};
  for (size_t i = g; i < r->n_kernels; i++) {
    const upk_kr_kernel *k = &r->kernels[i];
    if (grp[i] != g)
      continue;
    f.count++;
#define MAXOF(x) f.max.x = k->x > f.max.x ? k->x : f.max.x
    MAXOF(registers);
    MAXOF(spill_stores);
    MAXOF(spill_loads);
    MAXOF(stack_frame);
    MAXOF(smem_static);
    MAXOF(constant);
#undef MAXOF
    if (k->occupancy.percent < r->kernels[f.worst].occupancy.percent)
      f.worst = i;
  }
  f.max.occupancy = r->kernels[f.worst].occupancy;
  f.max.occupancy_assumed = r->kernels[f.worst].occupancy_assumed;
  return f;
}

static void figures(upk_html *h, const upk_kr_kernel *k) {
  upk_html_rawf(h,
                "</td><td class=\"num\">%d</td><td class=\"num\">%ld / %ld</td>"
                "<td class=\"num\">%ld</td><td class=\"num\">%ld</td><td class=\"num\">%ld</td>"
                "<td>",
                k->registers, k->spill_stores, k->spill_loads, k->stack_frame, k->smem_static,
                k->constant);
  upk_html_textf(h, "%.0f%% at block %d, bound by %s%s", k->occupancy.percent,
                 k->occupancy.block_size, k->occupancy.limiter ? k->occupancy.limiter : "-",
                 k->occupancy_assumed ? " (block size assumed)" : "");
  upk_html_raw(h, "</td></tr>\n");
}

/* A template's row: its name and count, its instances listed when the reader opens it. */
static void template_cell(upk_html *h, const upk_kernel_report *r, const size_t *grp, size_t g,
                          size_t count) {
  size_t bn;
  const char *b = upk_kernel_base_name(r->kernels[g].name, &bn);
  upk_html_raw(h, "<details><summary><code>");
  upk_html_textf(h, "%.*s<...>", (int)bn, b);
  upk_html_raw(h, "</code>");
  upk_html_textf(h, " (%zu instantiations: the largest figures, the lowest occupancy)", count);
  upk_html_raw(h, "</summary><ul>");
  for (size_t i = g; i < r->n_kernels; i++) {
    const upk_kr_kernel *k = &r->kernels[i];
    if (grp[i] != g)
      continue;
    upk_html_raw(h, "<li><code>");
    upk_html_text(h, k->name);
    upk_html_raw(h, "</code>: ");
    upk_html_textf(h, "%d registers, %.0f%% at block %d", k->registers, k->occupancy.percent,
                   k->occupancy.block_size);
    upk_html_raw(h, "</li>");
  }
  upk_html_raw(h, "</ul></details>");
}

/* One row per kernel, one per template (instances folded, listed on opening it). */
static void table(upk_html *h, const upk_kernel_report *r, const size_t *grp) {
  upk_html_raw(h, "<table class=\"kernels\"><tr><th>kernel</th><th>registers</th><th>spill "
                  "stores / loads</th><th>stack</th><th>shared</th><th>constant</th>"
                  "<th>occupancy</th></tr>\n");
  for (size_t i = 0; i < r->n_kernels; i++) {
    if (grp[i] != i)
      continue;
    folded f = fold_group(r, grp, i);
    upk_html_raw(h,
                 f.count > 1 ? "<tr class=\"kernel template\"><td>" : "<tr class=\"kernel\"><td>");
    if (f.count > 1) {
      template_cell(h, r, grp, i, f.count);
    } else {
      upk_html_raw(h, "<code>");
      upk_html_text(h, r->kernels[i].name);
      upk_html_raw(h, "</code>");
    }
    figures(h, &f.max);
  }
  upk_html_raw(h, "</table>\n");
}

static void occupancy_chart(upk_html *h, const upk_kr_kernel *k, size_t idx) {
  upk_column *cols = upk_xcalloc(k->n_sizes + 1, sizeof *cols);
  char id[32], title[300], mark[120];
  if (!cols) {
    h->oom = true;
    return;
  }
  for (size_t i = 0; i < k->n_sizes; i++)
    cols[i] = (upk_column){k->by_size[i].block_size, k->by_size[i].percent,
                           k->by_size[i].limiter ? k->by_size[i].limiter : "none"};
  snprintf(id, sizeof id, "occupancy-%zu", idx);
  snprintf(title, sizeof title, "Occupancy of %s by block size (H100)", k->name ? k->name : "?");
  snprintf(mark, sizeof mark, "block %d: %.0f%%, bound by %s", k->occupancy.block_size,
           k->occupancy.percent, k->occupancy.limiter ? k->occupancy.limiter : "-");
  upk_column_chart c = {.id = id,
                        .title = title,
                        .x_label = "threads per block",
                        .y_label = "occupancy %",
                        .cols = cols,
                        .n = k->n_sizes,
                        .max = 100,
                        .mark_x = k->occupancy.block_size,
                        .mark_label = mark};
  upk_html_raw(h, "<h3><code>");
  upk_html_text(h, k->name);
  upk_html_raw(h, "</code></h3>\n");
  upk_chart_columns(h, &c);
  free(cols);
}

static void limiter_legend(upk_html *h) {
  static const char *const lim[] = {"warps", "registers", "shared memory", "blocks"};
  upk_html_raw(h, "<div class=\"legend\">A column's colour is the limit that binds at that block "
                  "size: ");
  for (size_t i = 0; i < 4; i++) {
    char cls[32];
    upk_slug(lim[i], cls, sizeof cls);
    upk_html_rawf(h,
                  "<span><svg width=\"10\" height=\"10\" style=\"display:inline;margin:0\">"
                  "<rect class=\"%s\" width=\"10\" height=\"10\"/></svg> %s</span>",
                  cls, lim[i]);
  }
  upk_html_raw(h, "</div>\n");
}

static void timing(upk_html *h, const upk_kr_run *run) {
  char dev[200], note[2][64];
  upk_html_elem(h, "h2", NULL, "GPU run");
  snprintf(dev, sizeof dev, "%s: %s after %ld trial%s; max abs error %g, max rel error %g",
           run->device ? run->device : "GPU", run->ok ? "PASS" : "FAIL", run->trials,
           run->trials == 1 ? "" : "s", run->max_abs_error, run->max_rel_error);
  upk_html_elem(h, "p", run->ok ? "run pass" : "run fail", dev);
  if (!isfinite(run->kernel.median))
    return;
  const upk_kr_time *t[2] = {&run->kernel, &run->reference};
  upk_bar_group g[2] = {{.name = "kernel"}, {.name = "reference"}};
  double top = 0;
  size_t n = isfinite(run->reference.median) ? 2 : 1;
  for (size_t i = 0; i < n; i++) {
    snprintf(note[i], sizeof note[i], "(%ld timed, sd %.3g)", t[i]->n, t[i]->stddev);
    g[i].bars[0] = (upk_bar){t[i]->median, t[i]->min, t[i]->max, note[i]};
    top = t[i]->max > top ? t[i]->max : top;
  }
  double p = pow(10, floor(log10(top > 0 ? top : 1)));
  upk_bar_chart c = {.id = "timing",
                     .title = "Time per launch: median, whiskers at min and max",
                     .series = {"median"},
                     .n_series = 1,
                     .groups = g,
                     .n_groups = n,
                     .min = 0,
                     .max = ceil(top / p) * p,
                     .unit = "ms"};
  upk_chart_bars(h, &c);
  if (isfinite(run->speedup)) {
    char s[64];
    snprintf(s, sizeof s, "speedup over the reference: %.2fx (medians)", run->speedup);
    upk_html_elem(h, "p", "speedup", s);
  }
}

int upk_kernel_report_html(const upk_kernel_report *r, char **html, size_t *len) {
  upk_html h;
  char title[300];
  upk_html_init(&h);
  snprintf(title, sizeof title, "Kernel check: %s", r->file ? r->file : "source");
  upk_html_begin(&h, title);
  meta(&h, r);
  upk_html_elem(&h, "h2", NULL, "Kernels");
  size_t *grp = groups_of(r);
  if (r->n_kernels)
    table(&h, r, grp);
  else
    upk_html_elem(&h, "p", "muted", "No kernels (see the diagnostics).");
  bool any = false;
  for (size_t i = 0; i < r->n_kernels; i++)
    any |= r->kernels[i].n_sizes > 0;
  if (any) {
    upk_html_elem(&h, "h2", NULL, "Occupancy by block size");
    limiter_legend(&h);
    for (size_t i = 0; i < r->n_kernels; i++) { /* a template's chart: its worst instance's */
      size_t w = grp[i] == i ? fold_group(r, grp, i).worst : r->n_kernels;
      if (w < r->n_kernels && r->kernels[w].n_sizes)
        occupancy_chart(&h, &r->kernels[w], w);
    }
  }
  free(grp);
  if (r->run.present)
    timing(&h, &r->run);
  upk_html_end(&h);
  *html = upk_html_take(&h, len);
  return *html ? 0 : -ENOMEM;
}
