/* The method table as MCP publishes it (issue 32): every array parameter says what its items
 * are (strict schema validators refuse tools whose arrays do not), every default passes its
 * own parameter's check, every tool has an outputSchema, and refusals read as text
 * (daemon/mcp/tool_text.c). tests/conformance/schemas.test.mjs compiles the schemas with ajv. */
#include <string.h>

#include "daemon/kernels/kernel_brief.h"
#include "daemon/methods.h"
#include "daemon/mcp/tool_text.h"
#include "tests/unit/unit.h"

/* Every UPK_T_ARRAY at any depth of `p` has items; `where` names it in the message. */
static void arrays_have_items(const upk_param *p, const char *where) {
  char sub[256];
  snprintf(sub, sizeof sub, "%s.%s", where, p->name ? p->name : "[]");
  if (p->type == UPK_T_ARRAY)
    cr_assert_not_null(p->items, "%s: an array without items", sub);
  if (p->items)
    arrays_have_items(p->items, sub);
  for (const upk_param *f = p->props; f && f->name; f++)
    arrays_have_items(f, sub);
  for (size_t i = 0; i < p->n_alts; i++)
    arrays_have_items(&p->alts[i], sub);
}

static size_t each_method(void (*fn)(const upk_method *m)) {
  const upk_method *m;
  size_t i;
  for (i = 0; (m = upk_method_at(i, true)); i++)
    fn(m);
  return i;
}

static void method_arrays(const upk_method *m) {
  for (const upk_param *p = m->params; p && p->name; p++)
    arrays_have_items(p, m->name);
  for (const upk_param *p = m->result; p && p->name; p++)
    arrays_have_items(p, m->tool);
}

UTest(tools, every_array_has_items) {
  cr_assert_gt(each_method(method_arrays), 15);
}

/* A default must be a value its own parameter accepts: the schema publishes it as such. */
static void method_defaults(const upk_method *m) {
  for (const upk_param *p = m->params; p && p->name; p++) {
    if (!p->def)
      continue;
    upk_param one[2] = {*p, {0}};
    json_t *schema = upk_params_schema(one);
    json_t *def =
        json_object_get(json_object_get(json_object_get(schema, "properties"), p->name), "default");
    cr_assert_not_null(def, "%s.%s: default %s not published", m->name, p->name, p->def);
    json_t *params = json_pack("{s:O}", p->name, def);
    char err[256] = "";
    cr_assert_eq(upk_params_check(params, one, err, sizeof err), 0, "%s.%s: default %s: %s",
                 m->name, p->name, p->def, err);
    json_decref(params);
    json_decref(schema);
  }
}

UTest(tools, defaults_pass_their_own_check) {
  each_method(method_defaults);
}

static void method_tool(const upk_method *m) {
  if (!m->tool)
    return;
  cr_assert_not_null(m->result, "tool %s has no result table (outputSchema)", m->tool);
  json_t *t = upk_method_tool_json(m);
  cr_assert_str_eq(json_string_value(json_object_get(t, "name")), m->tool);
  json_t *in = json_object_get(t, "inputSchema"), *out = json_object_get(t, "outputSchema");
  cr_assert_str_eq(json_string_value(json_object_get(in, "type")), "object", "%s", m->tool);
  cr_assert_str_eq(json_string_value(json_object_get(out, "type")), "object", "%s", m->tool);
  json_t *a = json_object_get(t, "annotations");
  static const char *const hints[] = {"readOnlyHint", "destructiveHint", "idempotentHint",
                                      "openWorldHint"};
  for (size_t i = 0; i < 4; i++) /* every hint said, none left to a client's default */
    cr_assert(json_is_boolean(json_object_get(a, hints[i])), "%s: %s", m->tool, hints[i]);
  /* A read-only tool destroys nothing. */
  cr_assert(!json_is_true(json_object_get(a, "readOnlyHint")) ||
                json_is_false(json_object_get(a, "destructiveHint")),
            "%s", m->tool);
  json_decref(t);
}

UTest(tools, every_tool_has_an_output_schema) {
  each_method(method_tool);
}

static json_t *diag(int line, int col, int sev, const char *code, const char *msg,
                    const char *file) {
  json_t *d = json_pack("{s:{s:{s:i,s:i},s:{s:i,s:i}},s:i,s:s,s:s}", "range", "start", "line", line,
                        "character", col, "end", "line", line, "character", col + 1, "severity",
                        sev, "code", code, "message", msg);
  if (file)
    json_object_set_new(d, "file", json_string(file));
  return d;
}

UTest(tools, refusal_text_lists_each_diagnostic) {
  json_t *data = json_pack(
      "{s:[o,o,o],s:[]}", "diagnostics",
      diag(1, 6, 1, "skill/name-uppercase", "Skill name 'Bad' must be lowercase", NULL),
      diag(0, 0, 2, "skill/long", "too long", "references/a.md"),
      diag(0, 0, 1, "install/invalid", "the skill has 1 validation error", NULL), "targets");
  char *t =
      upk_tool_diag_text(data, "install refused: the skill has 1 validation error", "SKILL.md");
  cr_assert_str_eq(t,
                   "install refused: the skill has 1 validation error\n"
                   "SKILL.md:2:7 error skill/name-uppercase: Skill name 'Bad' must be lowercase\n"
                   "references/a.md:1:1 warning skill/long: too long");
  free(t);
  json_t *none = json_pack("{s:[]}", "diagnostics");
  cr_assert_null(upk_tool_diag_text(none, "x", "SKILL.md"), "no diagnostics: the message alone");
  cr_assert_null(upk_tool_diag_text(NULL, "x", "SKILL.md"));
  json_decref(none);
  json_decref(data);
}

UTest(tools, failed_check_text_counts_and_lists) {
  json_t *r = json_pack("{s:b,s:s,s:[o,o]}", "ok", 0, "file", "kernel.cu", "diagnostics",
                        diag(0, 45, 1, "nvrtc/error", "identifier \"y\" is undefined", NULL),
                        diag(3, 0, 2, "h100/x", "a warning", NULL));
  char *t = upk_tool_failed_check_text(r, "input");
  cr_assert_str_eq(t, "Not ok: 1 error, 1 warning.\n"
                      "kernel.cu:1:46 error nvrtc/error: identifier \"y\" is undefined\n"
                      "kernel.cu:4:1 warning h100/x: a warning");
  free(t);
  json_object_set_new(r, "ok", json_true());
  cr_assert_null(upk_tool_failed_check_text(r, "input"), "ok results keep their JSON alone");
  json_decref(r);
  /* a kernel-builder project: the rows' diagnostics, each in its file */
  r = json_pack("{s:b,s:[],s:[{s:s,s:[o]}]}", "ok", 0, "diagnostics", "rows", "file", "a.cu",
                "diagnostics", diag(9, 1, 1, "nvrtc/error", "bad", NULL));
  t = upk_tool_failed_check_text(r, "input");
  cr_assert_str_eq(t, "Not ok: 1 error, 0 warnings.\na.cu:10:2 error nvrtc/error: bad");
  free(t);
  json_decref(r);
}

UTest(tools, long_lists_are_cut) {
  json_t *a = json_array();
  for (int i = 0; i < 60; i++)
    json_array_append_new(a, diag(i, 0, 1, "c", "m", NULL));
  json_t *r = json_pack("{s:o}", "diagnostics", a);
  char *t = upk_tool_diag_text(r, "refused", "f");
  cr_assert(strstr(t, "f:50:1 error c: m\n... and 10 more in structuredContent.diagnostics"), "%s",
            t);
  cr_assert_null(strstr(t, "f:51:1"));
  free(t);
  json_decref(r);
}

/* The annotations say what a call may do at its worst (issue 44): a tool that runs code,
 * writes or deletes is not read-only; one that reaches a model or a git host is open-world. */
static const struct {
  const char *tool;
  bool read_only, destructive, open_world;
} HONEST[] = {
    {"validate_kernel", true, false, false}, /* a compile: no code of the kernel's runs */
    {"run_kernel", false, true, true},       /* the GPU and a Python reference */
    {"install_skill", false, true, true},    {"remove_skill", false, true, false},
    {"restore_skills", false, true, true},   {"check_skills", false, true, true},
    {"generate_skill", false, true, true},   {"eval_skill", false, false, true},
    {"condense_trace", true, false, false},  {"find_skill", true, false, false},
    {"get_skill", true, false, false},       {"audit_skill", true, false, true},
    {"complete", true, false, true},         {"status", true, false, false},
};

static void method_honest(const upk_method *m) {
  for (size_t i = 0; m->tool && i < sizeof HONEST / sizeof *HONEST; i++) {
    if (strcmp(m->tool, HONEST[i].tool))
      continue;
    json_t *t = upk_method_tool_json(m), *a = json_object_get(t, "annotations");
    cr_expect_eq(json_is_true(json_object_get(a, "readOnlyHint")), HONEST[i].read_only, "%s",
                 m->tool);
    cr_expect_eq(json_is_true(json_object_get(a, "destructiveHint")), HONEST[i].destructive, "%s",
                 m->tool);
    cr_expect_eq(json_is_true(json_object_get(a, "openWorldHint")), HONEST[i].open_world, "%s",
                 m->tool);
    json_decref(t);
  }
}

UTest(tools, annotations_are_honest) {
  each_method(method_honest);
}

/* validate_kernel's answer (daemon/kernels/kernel_brief.c): a summary first, names without
 * their mangled forms, dependencies counted unless asked for, and a file of 10,000 kernels
 * (with as many warnings) folded within the budget, saying what it left out. */
static json_t *kernel_result(size_t n) {
  json_t *ks = json_array(), *ds = json_array();
  for (size_t i = 0; i < n; i++) {
    char name[32], mangled[48];
    snprintf(name, sizeof name, "k%zu", i);
    snprintf(mangled, sizeof mangled, "_Z%zu%sPfS_i", strlen(name), name);
    json_array_append_new(ks, json_pack("{s:s,s:s,s:i,s:i,s:n,s:n,s:[],s:{s:i,s:f,s:s}}", "name",
                                        name, "mangled", mangled, "line", (int)i + 1, "registers",
                                        32, "launchBounds", "clusterDims", "launches", "occupancy",
                                        "blockSize", 256, "percent", 100.0, "limiter", "warps"));
    json_array_append_new(ds, json_pack("{s:i,s:s,s:s}", "severity", 2, "code", "h100/lint",
                                        "message", "a warning of the H100 lint, ninety bytes"));
  }
  return json_pack("{s:b,s:s,s:s,s:o,s:o,s:[{s:s,s:i},{s:s,s:i}]}", "ok", 1, "backend", "nvrtc",
                   "arch", "sm_90a", "kernels", ks, "diagnostics", ds, "dependencies", "path",
                   "/usr/include/a.h", "size", 10, "path", "/usr/include/b.h", "size", 20);
}

static size_t dumped(const json_t *j) {
  char *t = json_dumps(j, JSON_COMPACT);
  size_t n = strlen(t);
  free(t);
  return n;
}

UTest(tools, kernel_answer_fits_its_budget) {
  json_t *one = kernel_result(2), *brief = upk_kernel_brief(one, false);
  cr_assert_leq(dumped(brief), UPK_KERNEL_BRIEF_BUDGET, "%zu", dumped(brief));
  const char *first_key = json_object_iter_key(json_object_iter(brief));
  cr_assert_str_eq(first_key, "summary");
  cr_assert_str_eq(json_string_value(json_object_get(brief, "summary")),
                   "ok: 2 kernels for sm_90a (nvrtc), 0 errors, 2 warnings.");
  json_t *k0 = json_array_get(json_object_get(brief, "kernels"), 0);
  cr_assert_null(json_object_get(k0, "mangled"));
  cr_assert_null(json_object_get(k0, "launchBounds"));
  cr_assert_eq(json_integer_value(json_object_get(brief, "dependencyCount")), 2);
  cr_assert_null(json_object_get(brief, "dependencies"));
  cr_assert_null(json_object_get(brief, "kernelsOmitted"));
  cr_assert_not_null(json_object_get(json_array_get(json_object_get(one, "kernels"), 0), "mangled"),
                     "the result itself (maybe cached) is not changed");
  json_decref(brief);
  brief = upk_kernel_brief(one, true);
  cr_assert_eq(json_array_size(json_object_get(brief, "dependencies")), 2);
  json_decref(brief);
  json_decref(one);
  json_t *many = kernel_result(10000);
  brief = upk_kernel_brief(many, false);
  cr_assert_leq(dumped(brief), UPK_KERNEL_BRIEF_BUDGET, "%zu", dumped(brief));
  size_t shown = json_array_size(json_object_get(brief, "kernels"));
  cr_assert_geq(shown, 1);
  cr_assert_eq(json_integer_value(json_object_get(brief, "kernelsOmitted")), 10000 - (int)shown);
  cr_assert_gt(json_integer_value(json_object_get(brief, "diagnosticsOmitted")), 9900);
  cr_assert(strstr(json_string_value(json_object_get(brief, "more")), "names"));
  cr_assert(strstr(json_string_value(json_object_get(brief, "summary")), "10000 kernels"));
  json_decref(brief);
  json_decref(many);
}
