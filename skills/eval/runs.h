/** Evaluation runs on disk, under runs_dir (config `runs_dir`, else
 * $XDG_STATE_HOME/upskilld/runs):
 *
 *   <runs_dir>/<id>/run.json                  what was run: kind, skill, models, runs, ...
 *   <runs_dir>/<id>/transcripts/<model>/<condition>-r<run>-c<case>.json
 *                                             one per trial: prompt, answer, tokens,
 *                                             every assertion's verdict, kernel checks
 *   <runs_dir>/<id>/summary.json              the statistics (evalstats.h)
 *
 * An id is the UTC time and a random suffix, "20260218T101500Z-9f3a1c07",
 * and the directory is made with mkdir, which fails if it exists: two runs
 * started in the same second (upskill shares one directory per minute) can
 * never share a directory. Ids sort by time. Every file is written to a
 * temporary name, synced and renamed, so a reader never sees half a file.
 */
#ifndef UPK_RUNS_H
#define UPK_RUNS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "skills/eval/assertion.h"
#include "skills/fsutil.h" /* upk_write_file_atomic */

/** Longest id: "YYYYMMDDTHHMMSSZ-" + 8 hex digits + NUL, with room to spare. */
#define UPK_RUN_ID_MAX 40

typedef struct upk_run {
  char id[UPK_RUN_ID_MAX];
  char *dir; /* <runs_dir>/<id> */
} upk_run;

/** What a run is (strings borrowed). */
typedef struct upk_run_meta {
  const char *kind;  /* "eval", "benchmark", "generate" */
  const char *skill; /* name or path */
  const char *const *models;
  size_t n_models;
  unsigned runs;
  bool baseline;
  size_t n_cases;
} upk_run_meta;

/** One trial's record (strings borrowed; NULL ones are written as null). */
typedef struct upk_transcript {
  const char *model;
  bool with_skill;
  unsigned run;
  size_t case_idx;
  const char *system_prompt; /* what the model was told besides the prompt */
  const char *prompt;
  const char *answer; /* NULL when the call failed */
  const char *error;  /* why the call failed; NULL on success */
  long input_tokens, output_tokens;
  double duration_ms;
  const upk_assert_report *report; /* NULL: not evaluated */
  const json_t *agent;             /* an agent run's record (borrowed), or NULL */
} upk_transcript;

/** Create <runs_dir> (with parents) and a new run in it, with run.json.
 * Returns 0 or a negative errno. */
int upk_run_create(const char *runs_dir, const upk_run_meta *meta, upk_run *out);
/** A model name as one safe path component ("agent:claude-code" ->
 * "agent_claude-code", plus a hash when anything was changed). */
void upk_run_model_component(const char *model, char *out, size_t cap);
/** Write one trial's transcript. */
int upk_run_write_transcript(const upk_run *run, const upk_transcript *t);
/** Write summary.json from JSON text (checked to be JSON: -EINVAL if not). */
int upk_run_write_summary(const upk_run *run, const char *summary_json);
void upk_run_free(upk_run *run);

/** Is `id` shaped like a run id (so that it names nothing outside runs_dir)? */
bool upk_run_id_ok(const char *id);

/** A run as listed. */
typedef struct upk_run_info {
  char id[UPK_RUN_ID_MAX];
  char *kind, *skill, *created_at; /* NULL when run.json lacks them */
  char **models;
  size_t n_models;
  size_t n_transcripts;
  bool has_summary;
  bool failed; /* summary.json's status is "failed": every trial of a model errored */
} upk_run_info;

/** Every run under runs_dir, newest first. A missing runs_dir is no runs.
 * Directories that are not runs are ignored. */
int upk_runs_list(const char *runs_dir, upk_run_info **out, size_t *n);
void upk_run_infos_free(upk_run_info *v, size_t n);

/** One run as JSON text: {"id", "run": run.json, "summary": summary.json |
 * null, "transcripts": [...]} (transcripts only when asked). Returns 0,
 * -EINVAL (bad id), -ENOENT (no such run), or another negative errno. */
int upk_runs_show(const char *runs_dir, const char *id, bool transcripts, char **json_out);

/** CSV (RFC 4180) of every transcript of the given runs (NULL ids: all), one
 * row per trial: run_id, created_at, kind, skill, model, condition, run,
 * case, verdict, assertions_passed, assertions_total, input_tokens,
 * output_tokens, duration_ms, error, prompt. Text cells that a spreadsheet
 * would run as a formula (leading = + - @ tab CR) get a leading '. */
int upk_runs_export_csv(const char *runs_dir, const char *const *ids, size_t n_ids, FILE *out);
/** One CSV cell: quoted when it holds , " CR or LF, quotes doubled. */
int upk_csv_cell(FILE *out, const char *text);

#endif
