/* check-kernel's kernel and launch tables (kernel_table.h). */
#include "clients/kernel_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "report/kernel_name.h"

static const char *sv(json_t *o, const char *k) {
  const char *v = json_string_value(json_object_get(o, k));
  return v ? v : "-";
}

static long long iv(json_t *o, const char *k) {
  return (long long)json_integer_value(json_object_get(o, k));
}

/* "50% (registers) at block 1024 (launch, line 193)". */
static void occupancy_cell(json_t *occ, char *buf, size_t len) {
  if (!json_is_object(occ)) {
    snprintf(buf, len, "-");
    return;
  }
  const char *from = sv(occ, "from");
  char where[64] = "";
  if (!strcmp(from, "launch"))
    snprintf(where, sizeof where, " (launch, line %lld)", iv(occ, "line") + 1);
  else if (!strcmp(from, "request"))
    snprintf(where, sizeof where, " (given)");
  else if (!strcmp(from, "launchBounds"))
    snprintf(where, sizeof where, " (__launch_bounds__)");
  else if (json_is_true(json_object_get(occ, "assumed")))
    snprintf(where, sizeof where, ", assumed");
  bool dyn_unknown = json_is_false(json_object_get(occ, "dynamicSharedKnown"));
  snprintf(buf, len, "%.0f%% (%s) at block %lld%s%s",
           json_number_value(json_object_get(occ, "percent")), sv(occ, "limiter"),
           iv(occ, "blockSize"), where, dyn_unknown ? "; dynamic smem unknown (0 counted)" : "");
}

typedef struct row {
  const char *name;
  char label[160];
  json_t *worst; /* the kernel with the lowest occupancy */
  long long regs, st, ld, stack, smem, cmem;
  int count;
} row;

static double occ_of(json_t *k) {
  return json_number_value(json_object_get(json_object_get(k, "occupancy"), "percent"));
}

static bool assumed(json_t *k) {
  return json_is_true(json_object_get(json_object_get(k, "occupancy"), "assumed"));
}

static void fold(row *r, json_t *k) {
  if (!r->worst || occ_of(k) < occ_of(r->worst) ||
      (occ_of(k) == occ_of(r->worst) && assumed(r->worst) && !assumed(k)))
    r->worst = k;
#define MAXOF(f, key) r->f = iv(k, key) > r->f ? iv(k, key) : r->f
  MAXOF(regs, "registers");
  MAXOF(st, "spillStores");
  MAXOF(ld, "spillLoads");
  MAXOF(stack, "stackFrame");
  MAXOF(smem, "sharedStatic");
  MAXOF(cmem, "constant");
#undef MAXOF
  r->count++;
}

/* One row per kernel, or per template (its instantiations folded: the worst figures). */
static size_t rows_of(json_t *kernels, bool all, row *rows) {
  size_t n = 0, i;
  json_t *k;
  json_array_foreach(kernels, i, k) {
    size_t bn, j;
    const char *b = upk_kernel_base_name(sv(k, "name"), &bn);
    bool templ = strchr(sv(k, "name"), '<') != NULL;
    for (j = 0; j < n && !all && templ; j++) {
      size_t rn;
      const char *rb = upk_kernel_base_name(rows[j].name, &rn);
      if (rn == bn && !memcmp(rb, b, bn) && strchr(rows[j].name, '<'))
        break;
    }
    if (all || !templ || j == n) {
      rows[n] = (row){.name = sv(k, "name")};
      j = n++;
    }
    fold(&rows[j], k);
  }
  for (i = 0; i < n; i++) {
    size_t bn;
    const char *b = upk_kernel_base_name(rows[i].name, &bn);
    if (rows[i].count > 1)
      snprintf(rows[i].label, sizeof rows[i].label, "%.*s<...> (%d)", (int)bn, b, rows[i].count);
    else
      snprintf(rows[i].label, sizeof rows[i].label, "%s", rows[i].name);
  }
  return n;
}

/* "32x16" or "256", or "unknown". */
static void block_cell(json_t *l, char *buf, size_t len) {
  json_t *b = json_object_get(l, "block");
  if (!json_is_array(b)) {
    snprintf(buf, len, "unknown");
    return;
  }
  long long x = json_integer_value(json_array_get(b, 0)),
            y = json_integer_value(json_array_get(b, 1));
  long long z = json_integer_value(json_array_get(b, 2));
  if (y == 1 && z == 1)
    snprintf(buf, len, "%lld", x);
  else if (z == 1)
    snprintf(buf, len, "%lldx%lld (%lld)", x, y, x * y);
  else
    snprintf(buf, len, "%lldx%lldx%lld (%lld)", x, y, z, x * y * z);
}

/* "193" or "193,210 (+3)". */
static void lines_cell(json_t *l, char *buf, size_t len) {
  size_t n = 0, i;
  json_t *x;
  buf[0] = '\0';
  json_array_foreach(json_object_get(l, "lines"), i, x) {
    if (i < 3)
      n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%lld", i ? "," : "",
                            (long long)json_integer_value(x) + 1);
  }
  if (iv(l, "count") > 3 && n < len)
    snprintf(buf + n, len - n, " (+%lld)", iv(l, "count") - 3);
}

static bool in_array(json_t *a, json_t *x) {
  size_t i;
  json_t *y;
  json_array_foreach(a, i, y) if (y == x) return true;
  return false;
}

static int by_line(const void *a, const void *b) {
  long long x = iv(*(json_t *const *)a, "line"), y = iv(*(json_t *const *)b, "line");
  return (x > y) - (x < y);
}

/* Each launch site once (per instantiation with --all-instantiations): the lowest occupancy. */
static void print_launches(json_t *kernels, json_t *unmatched, bool all) {
  json_t *seen = json_object(), *k, *l;
  size_t i, j;
  json_array_foreach(unmatched, i, l) {
    char key[64];
    snprintf(key, sizeof key, "%lld unmatched", iv(l, "line"));
    json_object_set(seen, key, l);
  }
  json_array_foreach(kernels, i, k) {
    json_array_foreach(json_object_get(k, "launches"), j, l) {
      char key[200];
      snprintf(key, sizeof key, "%lld %s", iv(l, "line"), all ? sv(k, "name") : "");
      json_t *had = json_object_get(seen, key);
      double p = json_number_value(json_object_get(json_object_get(l, "occupancy"), "percent"));
      double q = json_number_value(json_object_get(json_object_get(had, "occupancy"), "percent"));
      if (!had || (json_is_object(json_object_get(l, "occupancy")) && p < q))
        json_object_set(seen, key, l);
    }
  }
  if (!json_object_size(seen)) {
    json_decref(seen);
    return;
  }
  printf("\n%-28s %-12s %-16s %-10s %s\n", "LAUNCH", "LINE", "BLOCK", "DYN SMEM", "OCCUPANCY");
  size_t n = 0;
  const char *key;
  json_t **v = upk_xcalloc(json_object_size(seen), sizeof *v);
  json_object_foreach(seen, key, l) v[n++] = l;
  qsort(v, n, sizeof *v, by_line);
  for (i = 0; i < n; i++) {
    l = v[i];
    char lines[48], block[48], smem[32], occ[200];
    lines_cell(l, lines, sizeof lines);
    block_cell(l, block, sizeof block);
    json_t *d = json_object_get(l, "dynamicSharedBytes");
    snprintf(smem, sizeof smem, json_is_integer(d) ? "%lld" : "unknown",
             iv(l, "dynamicSharedBytes"));
    json_t *o = json_object_get(l, "occupancy");
    if (json_is_object(o))
      snprintf(occ, sizeof occ, "%.0f%% (%s)%s", json_number_value(json_object_get(o, "percent")),
               sv(o, "limiter"),
               json_is_false(json_object_get(o, "dynamicSharedKnown")) ? ", dynamic smem unknown"
                                                                       : "");
    else
      snprintf(occ, sizeof occ, "-");
    printf("%-28s %-12s %-16s %-10s %s", sv(l, "kernel"), lines, block, smem, occ);
    if (json_is_string(json_object_get(l, "unknown")))
      printf("  (%s)", sv(l, "unknown"));
    if (json_array_size(unmatched) && in_array(unmatched, l))
      printf("  (matches no kernel compiled here)");
    if (json_is_integer(json_object_get(l, "underIf")))
      printf("  [under the #if on line %lld]", iv(l, "underIf") + 1);
    printf("\n");
  }
  free(v);
  json_decref(seen);
}

void ctl_print_kernels(json_t *result, bool all) {
  json_t *kernels = json_object_get(result, "kernels");
  size_t n = json_array_size(kernels), w = 6;
  row *rows = upk_xcalloc(n + 1, sizeof *rows);
  size_t nr = rows_of(kernels, all, rows);
  bool folded = false;
  for (size_t i = 0; i < nr; i++) {
    w = strlen(rows[i].label) > w ? strlen(rows[i].label) : w;
    folded |= rows[i].count > 1;
  }
  printf("%-*s %5s %13s %7s %7s %6s  %s\n", (int)w, "KERNEL", "REGS", "SPILL ST/LD", "STACK",
         "SMEM", "CMEM", "OCCUPANCY");
  for (size_t i = 0; i < nr; i++) {
    const row *r = &rows[i];
    char spill[48], occ[200];
    snprintf(spill, sizeof spill, "%lld/%lld", r->st, r->ld);
    occupancy_cell(json_object_get(r->worst, "occupancy"), occ, sizeof occ);
    printf("%-*s %5lld %13s %7lld %7lld %6lld  %s\n", (int)w, r->label, r->regs, spill, r->stack,
           r->smem, r->cmem, occ);
  }
  if (folded)
    printf("(templates: one row each, the largest figures and the lowest occupancy of their "
           "instantiations; --all-instantiations lists each)\n");
  print_launches(kernels, json_object_get(result, "unmatchedLaunches"), all);
  free(rows);
}
