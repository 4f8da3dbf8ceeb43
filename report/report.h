/** Reports people look at: one self-contained HTML file (inline SVG and CSS,
 * no script, works offline, prints well) for a stored evaluation run, a
 * comparison of two runs, a generation, or a kernel check.
 *
 * Run reports read what skills/eval/runs.h stored under runs_dir. Plain C over
 * jansson; no daemon, no protocol. */
#ifndef UPK_REPORT_H
#define UPK_REPORT_H

#include <stdbool.h>
#include <stddef.h>

/** The report of run `id`, or, with `id_b`, runs `id` (A) and `id_b` (B)
 * side by side (two evaluations of one skill, before and after a change).
 * An "eval"/"benchmark" run shows per model the pass rate with and without
 * the skill (95 % Wilson intervals as error bars), the lift with its
 * interval, tokens per trial, and a case x model grid coloured by verdict
 * whose cells open the trials' transcripts; a "generation" run shows the
 * pass rate by attempt with the kept attempt marked. *html is malloc'd.
 * Returns 0, -EINVAL (not a run id), -ENOENT (no such run), -ENODATA (the
 * run has no summary yet: unfinished or failed), -ENOMEM. */
int upk_run_report(const char *runs_dir, const char *id, const char *id_b, char **html,
                   size_t *len);

/* ---- kernels ---- */

/** Occupancy at one block size. */
typedef struct upk_kr_occ {
  int block_size;
  double percent;
  const char *limiter; /* "warps", "registers", "shared memory", "blocks" */
} upk_kr_occ;

/** Timing of a GPU run, ms. NaN: not measured. */
typedef struct upk_kr_time {
  double median, min, max, stddev;
  long n;
} upk_kr_time;

/** One kernel as checked (strings borrowed). */
typedef struct upk_kr_kernel {
  const char *name;
  int registers;
  long spill_stores, spill_loads, stack_frame, smem_static, constant;
  upk_kr_occ occupancy; /* at the block size it launches with */
  bool occupancy_assumed;
  const upk_kr_occ *by_size; /* occupancy by block size; may be empty */
  size_t n_sizes;
} upk_kr_kernel;

typedef struct upk_kr_run {
  bool present, ok;
  long trials;
  const char *device; /* "NVIDIA H100 ... (sm_90)"; may be NULL */
  double max_abs_error, max_rel_error;
  upk_kr_time kernel, reference;
  double speedup; /* NaN: no reference timed */
} upk_kr_run;

typedef struct upk_kernel_report {
  const char *file, *arch, *backend, *toolkit;
  double compile_ms;
  size_t errors, warnings;
  const upk_kr_kernel *kernels;
  size_t n_kernels;
  upk_kr_run run;
} upk_kernel_report;

/** The kernel report: the kernel table (a template's instantiations folded into one row with
 * the largest figures and the lowest occupancy, listed when the reader opens it), a chart of
 * occupancy by block size per kernel or template (its worst instance) with the binding limit
 * marked, and after a GPU run the time and speedup with the spread of the timed iterations.
 * *html is malloc'd. Returns 0 or -ENOMEM. */
int upk_kernel_report_html(const upk_kernel_report *r, char **html, size_t *len);

#endif
