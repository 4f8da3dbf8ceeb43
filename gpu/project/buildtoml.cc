// build.toml (kernel-builder edition 5) with toml++, behind buildtoml.h's C
// interface. The only C++ in the project: no exception and no C++ type
// crosses the interface (every entry point catches everything).
#include "gpu/project/buildtoml.h"

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <climits>
#include <cstring>
#include <string>
#include <sys/stat.h>

#include <toml++/toml.h>

#include "common/fileio.h"
#include "common/xalloc.h"
extern "C" {
#include "common/trust.h"
}

namespace {

enum kind { K_STR, K_INT, K_STRS, K_TABLE, K_ANY };

struct field {
  const char *key;
  kind k;
  bool required;
};

// The v5.rs structs, key by key.
const field general_fields[] = {{"name", K_STR, true},
                                {"version", K_INT, true},
                                {"edition", K_INT, true},
                                {"license", K_STR, true},
                                {"upstream", K_STR, false},
                                {"source", K_STR, false},
                                {"minver", K_STR, false},
                                {"backends", K_STRS, true},
                                {"cuda", K_TABLE, false},
                                {"hub", K_TABLE, false},
                                {"kernel-depends", K_ANY, false},
                                {"neuron", K_TABLE, false},
                                {"python-depends", K_STRS, false},
                                {"tpu", K_TABLE, false},
                                {"xpu", K_TABLE, false},
                                {nullptr, K_ANY, false}};
const field cuda_general_fields[] = {{"minver", K_STR, false},
                                     {"maxver", K_STR, false},
                                     {"kernel-depends", K_ANY, false},
                                     {"python-depends", K_STRS, false},
                                     {nullptr, K_ANY, false}};
const field deps_only_fields[] = {
    {"kernel-depends", K_ANY, false}, {"python-depends", K_STRS, false}, {nullptr, K_ANY, false}};
const field tpu_fields[] = {{"python-depends", K_STRS, false}, {nullptr, K_ANY, false}};
const field hub_fields[] = {
    {"repo-id", K_STR, false}, {"branch", K_STR, false}, {nullptr, K_ANY, false}};
const field torch_fields[] = {{"include", K_STRS, false},   {"minver", K_STR, false},
                              {"maxver", K_STR, false},     {"pyext", K_STRS, false},
                              {"src", K_STRS, false},       {"stable-abi", K_ANY, false},
                              {"cxx-flags", K_STRS, false}, {nullptr, K_ANY, false}};
// v5.rs has no rename_all on TorchNoarch (snake_case); the reference spells it
// kebab-case: both are accepted.
const field noarch_fields[] = {{"pyext", K_STRS, false},
                               {"cuda-capabilities", K_STRS, false},
                               {"cuda_capabilities", K_STRS, false},
                               {"rocm-archs", K_STRS, false},
                               {"rocm_archs", K_STRS, false},
                               {nullptr, K_ANY, false}};
const field tvm_fields[] = {{"include", K_STRS, false},
                            {"pyext", K_STRS, false},
                            {"src", K_STRS, true},
                            {"cxx-flags", K_STRS, false},
                            {nullptr, K_ANY, false}};

// Kernel keys: the common ones, then those of each backend.
const char *const kernel_common[] = {"backend", "cxx-flags", "depends", "include", "src", nullptr};
const char *const kernel_cuda[] = {"cuda-capabilities", "cuda-flags", "cuda-minver", nullptr};
const char *const kernel_rocm[] = {"rocm-archs", "hip-flags", nullptr};
const char *const kernel_xpu[] = {"sycl-flags", nullptr};
const char *const kernel_none[] = {nullptr};
const char *const backends[] = {"cann", "cpu", "cuda", "metal", "neuron",
                                "rocm", "tpu", "xpu",  nullptr};
const char *const kernel_backends[] = {"cpu", "cuda", "metal", "rocm", "xpu", nullptr};
const char *const dependencies[] = {"torch",       "cutlass_2_10", "cutlass_3_5", "cutlass_3_6",
                                    "cutlass_3_8", "cutlass_3_9",  "cutlass_4_0", "cutlass_4_4",
                                    "cutlass_4_5", "sycl_tla",     "metal-cpp",   nullptr};

struct ctx {
  upk_buildtoml *b;
  bool oom = false;
};

bool in_list(const char *const *list, const char *s) {
  for (; *list; list++)
    if (!std::strcmp(*list, s))
      return true;
  return false;
}

std::string join(const char *const *list) {
  std::string s;
  for (; *list; list++)
    s += (s.empty() ? "" : ", ") + std::string(*list);
  return s;
}

upk_range range_of(const toml::source_region &r) {
  int line = r.begin.line ? (int)r.begin.line - 1 : 0;
  int col = r.begin.column ? (int)r.begin.column - 1 : 0;
  int end =
      r.end.line == r.begin.line && r.end.column > r.begin.column ? (int)r.end.column - 1 : col + 1;
  return upk_range_line(line, col, end);
}

__attribute__((format(printf, 5, 6))) void diag(ctx &c, upk_severity sev, const char *code,
                                                const toml::source_region &where, const char *fmt,
                                                ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  upk_diags *d = &c.b->diags;
  if (upk_diags_add(d, sev, code, "build.toml", range_of(where), "%s", msg)) {
    c.oom = true;
    return;
  }
  if (c.b->path)
    d->items[d->len - 1].file = upk_xstrdup(c.b->path);
}

char *dup(ctx &, std::string_view s) {
  return upk_xstrndup(s.data(), s.size());
}

bool kind_ok(const toml::node &v, kind k) {
  switch (k) {
  case K_STR:
    return v.is_string();
  case K_INT:
    return v.is_integer();
  case K_TABLE:
    return v.is_table();
  case K_STRS:
    return v.is_array() &&
           (v.as_array()->empty() || v.as_array()->is_homogeneous(toml::node_type::string));
  default:
    return true;
  }
}

const char *kind_name(kind k) {
  static const char *const names[] = {"a string", "an integer", "an array of strings", "a table",
                                      "a value"};
  return names[k];
}

// Unknown keys, wrong types and missing required keys of one table.
void check_fields(ctx &c, const toml::table &t, const field *fields, const char *where) {
  std::string known;
  for (const field *f = fields; f->key; f++)
    known += (known.empty() ? "" : ", ") + std::string(f->key);
  for (auto &&[k, v] : t) {
    const field *f = fields;
    while (f->key && k.str() != f->key)
      f++;
    if (!f->key) {
      diag(c, UPK_SEV_ERROR, "buildtoml/unknown-key", k.source(),
           "unknown key '%s' in [%s] (edition 5 accepts: %s)", std::string(k.str()).c_str(), where,
           known.c_str());
    } else if (!kind_ok(v, f->k)) {
      diag(c, UPK_SEV_ERROR, "buildtoml/type", v.source(), "[%s] %s must be %s", where, f->key,
           kind_name(f->k));
    }
  }
  for (const field *f = fields; f->key; f++)
    if (f->required && !t.contains(f->key))
      diag(c, UPK_SEV_ERROR, "buildtoml/missing-key", t.source(), "[%s] needs '%s'", where, f->key);
}

void take_list(ctx &c, const toml::table &t, const char *key, upk_bt_list *out) {
  out->line = out->col = -1;
  auto kv = t.find(key);
  if (kv == t.end() || !kind_ok(kv->second, K_STRS))
    return;
  upk_range r = range_of(kv->first.source());
  out->line = r.line, out->col = r.col;
  const toml::array &a = *kv->second.as_array();
  out->v = static_cast<upk_bt_str *>(upk_xcalloc(a.size() + 1, sizeof *out->v));
  for (const toml::node &e : a) {
    upk_bt_str *s = &out->v[out->n++];
    upk_range er = range_of(e.source());
    s->s = dup(c, e.as_string()->get());
    s->line = er.line, s->col = er.col, s->end_col = er.end_col;
  }
}

char *take_str(ctx &c, const toml::table &t, const char *key) {
  const toml::node *v = t.get(key);
  return v && v->is_string() ? dup(c, v->as_string()->get()) : nullptr;
}

// The file behind a `src` entry must exist (relative to build.toml's directory).
void check_files(ctx &c, const upk_bt_list &l, const toml::table &t, const char *key) {
  const toml::array *a = t.get_as<toml::array>(key);
  for (size_t i = 0; a && i < l.n && i < a->size(); i++) {
    std::string p = l.v[i].s[0] == '/' ? l.v[i].s : std::string(c.b->dir) + "/" + l.v[i].s;
    struct stat st;
    if (stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode))
      continue;
    diag(c, UPK_SEV_ERROR, "buildtoml/missing-src", (*a)[i].source(),
         "%s does not exist (src paths are relative to the directory of build.toml)", l.v[i].s);
  }
}

void check_values(ctx &c, const toml::table &t, const char *key, const char *const *allowed,
                  upk_severity sev, const char *what) {
  const toml::array *a = t.get_as<toml::array>(key);
  for (size_t i = 0; a && i < a->size(); i++) {
    const toml::node &e = (*a)[i];
    if (e.is_string() && !in_list(allowed, e.as_string()->get().c_str()))
      diag(c, sev, "buildtoml/unknown-value", e.source(), "'%s' is not %s (known: %s)",
           e.as_string()->get().c_str(), what, join(allowed).c_str());
  }
}

void read_general(ctx &c, const toml::table &root) {
  const toml::table *g = root.get_as<toml::table>("general");
  if (!g) {
    diag(c, UPK_SEV_ERROR, "buildtoml/missing-key", root.source(), "build.toml needs [general]");
    return;
  }
  check_fields(c, *g, general_fields, "general");
  static const struct {
    const char *key;
    const field *fields;
  } subs[] = {{"cuda", cuda_general_fields},
              {"hub", hub_fields},
              {"neuron", deps_only_fields},
              {"tpu", tpu_fields},
              {"xpu", deps_only_fields}};
  for (const auto &s : subs)
    if (const toml::table *t = g->get_as<toml::table>(s.key))
      check_fields(c, *t, s.fields, ("general." + std::string(s.key)).c_str());
  c.b->name = take_str(c, *g, "name");
  if (const toml::node *v = g->get("version"); v && v->is_integer())
    c.b->version = (long)v->as_integer()->get();
  take_list(c, *g, "backends", &c.b->backends);
  check_values(c, *g, "backends", backends, UPK_SEV_ERROR, "a kernel-builder backend");
}

// Edition 5 is what this reads; 4 is close enough to read (the builder upgrades
// it in memory); 3 and older must be migrated first.
bool read_edition(ctx &c, const toml::table &root) {
  const toml::node *e = root.at_path("general.edition").node();
  if (!e || !e->is_integer())
    return true; // reported by check_fields
  c.b->edition = (long)e->as_integer()->get();
  if (c.b->edition == 5)
    return true;
  bool old = c.b->edition < 4;
  diag(c, old ? UPK_SEV_ERROR : UPK_SEV_WARNING, "buildtoml/edition", e->source(),
       "edition %ld: this reads edition 5%s", c.b->edition,
       old ? "; run `kernel-builder update-build` to migrate the file"
           : " (kernel-builder upgrades edition 4 in memory)");
  return !old;
}

void read_framework(ctx &c, const toml::table &root) {
  static const struct {
    const char *key;
    const field *fields;
  } fw[] = {{"torch", torch_fields}, {"torch-noarch", noarch_fields}, {"tvm-ffi", tvm_fields}};
  for (const auto &f : fw) {
    const toml::table *t = root.get_as<toml::table>(f.key);
    if (!t)
      continue;
    check_fields(c, *t, f.fields, f.key);
    if (c.b->framework) {
      diag(c, UPK_SEV_ERROR, "buildtoml/framework", t->source(),
           "[%s] and [%s]: a project has exactly one framework section", c.b->framework, f.key);
      continue;
    }
    c.b->framework = dup(c, f.key);
    take_list(c, *t, "src", &c.b->torch_src);
    take_list(c, *t, "include", &c.b->torch_include);
    check_files(c, c.b->torch_src, *t, "src");
  }
  if (!c.b->framework)
    diag(c, UPK_SEV_ERROR, "buildtoml/framework", root.source(),
         "build.toml needs one framework section: [torch], [torch-noarch] or [tvm-ffi]");
}

void read_caps(ctx &c, const toml::table &t, upk_bt_kernel *k) {
  const toml::array *a = t.get_as<toml::array>("cuda-capabilities");
  k->caps_given = a != nullptr;
  if (!a)
    return;
  k->caps = static_cast<upk_bt_cap *>(upk_xcalloc(a->size() + 1, sizeof *k->caps));
  for (const toml::node &e : *a) {
    if (!e.is_string())
      continue; // reported by check_fields
    upk_bt_cap cap{};
    const std::string &s = e.as_string()->get();
    if (!upk_bt_cap_parse(s.c_str(), &cap)) {
      diag(c, UPK_SEV_ERROR, "buildtoml/bad-capability", e.source(),
           "\"%s\" is not a CUDA capability: write \"<major>.<minor>[a][+PTX]\", e.g. \"9.0\", "
           "\"9.0a\" or \"9.0+PTX\" (kernel-builder knows 7.0 to 12.1; 'a' needs 9.0 or newer)",
           s.c_str());
      continue;
    }
    upk_range r = range_of(e.source());
    cap.text = {dup(c, s), r.line, r.col, r.end_col};
    k->caps[k->n_caps++] = cap;
  }
}

void check_kernel_keys(ctx &c, const toml::table &t, const upk_bt_kernel *k) {
  const char *b = k->backend ? k->backend : "";
  const char *const *extra = !std::strcmp(b, "cuda")   ? kernel_cuda
                             : !std::strcmp(b, "rocm") ? kernel_rocm
                             : !std::strcmp(b, "xpu")  ? kernel_xpu
                                                       : kernel_none;
  // Without a known backend, every backend's keys pass: the backend is the mistake.
  bool any = !in_list(kernel_backends, b);
  std::string where = "kernel." + std::string(k->name ? k->name : "");
  for (auto &&[key, v] : t) {
    std::string ks(key.str());
    const char *s = ks.c_str();
    if (in_list(kernel_common, s) || in_list(extra, s) ||
        (any && (in_list(kernel_cuda, s) || in_list(kernel_rocm, s) || in_list(kernel_xpu, s))))
      continue;
    std::string known = join(kernel_common) + (*extra ? ", " + join(extra) : "");
    const char *hint = ks == "cuda_flags" ? " ('cuda_flags' is spelled 'cuda-flags')" : "";
    diag(c, UPK_SEV_ERROR, "buildtoml/unknown-key", key.source(),
         "unknown key '%s' in [%s] with backend \"%s\"%s (accepted: %s)", ks.c_str(), where.c_str(),
         b, hint, known.c_str());
  }
  static const field typed[] = {{"backend", K_STR, true},      {"src", K_STRS, true},
                                {"depends", K_STRS, true},     {"include", K_STRS, false},
                                {"cxx-flags", K_STRS, false},  {"cuda-flags", K_STRS, false},
                                {"cuda-minver", K_STR, false}, {"cuda-capabilities", K_STRS, false},
                                {nullptr, K_ANY, false}};
  for (const field *f = typed; f->key; f++) {
    const toml::node *v = t.get(f->key);
    if (v && !kind_ok(*v, f->k))
      diag(c, UPK_SEV_ERROR, "buildtoml/type", v->source(), "[%s] %s must be %s", where.c_str(),
           f->key, kind_name(f->k));
    else if (!v && f->required)
      diag(c, UPK_SEV_ERROR, "buildtoml/missing-key", t.source(), "[%s] needs '%s'", where.c_str(),
           f->key);
  }
}

void read_kernel(ctx &c, std::string_view name, const toml::table &t, upk_bt_kernel *k) {
  k->name = dup(c, name);
  k->line = range_of(t.source()).line;
  k->backend = take_str(c, t, "backend");
  if (k->backend && !in_list(kernel_backends, k->backend))
    diag(c, UPK_SEV_ERROR, "buildtoml/unknown-value", t.get("backend")->source(),
         "backend \"%s\" is not one of %s", k->backend, join(kernel_backends).c_str());
  check_kernel_keys(c, t, k);
  take_list(c, t, "src", &k->src);
  take_list(c, t, "include", &k->include);
  take_list(c, t, "depends", &k->depends);
  take_list(c, t, "cuda-flags", &k->cuda_flags);
  take_list(c, t, "cxx-flags", &k->cxx_flags);
  check_files(c, k->src, t, "src");
  check_values(c, t, "depends", dependencies, UPK_SEV_WARNING, "a dependency kernel-builder knows");
  read_caps(c, t, k);
}

void read_kernels(ctx &c, const toml::table &root) {
  const toml::node *kn = root.get("kernel");
  if (!kn)
    return;
  const toml::table *kt = kn->as_table();
  if (!kt) {
    diag(c, UPK_SEV_ERROR, "buildtoml/type", kn->source(), "kernel must be a table of tables");
    return;
  }
  c.b->kernels = static_cast<upk_bt_kernel *>(upk_xcalloc(kt->size() + 1, sizeof *c.b->kernels));
  for (auto &&[name, v] : *kt) {
    if (!v.is_table()) {
      diag(c, UPK_SEV_ERROR, "buildtoml/type", v.source(), "kernel.%s must be a table",
           std::string(name.str()).c_str());
      continue;
    }
    read_kernel(c, name.str(), *v.as_table(), &c.b->kernels[c.b->n_kernels++]);
  }
  // toml++ keeps keys sorted; the file's order reads better in results.
  std::qsort(c.b->kernels, c.b->n_kernels, sizeof *c.b->kernels, [](const void *a, const void *b) {
    return static_cast<const upk_bt_kernel *>(a)->line -
           static_cast<const upk_bt_kernel *>(b)->line;
  });
}

void read_root(ctx &c, const toml::table &root) {
  static const char *const top[] = {"general", "torch",  "torch-noarch",
                                    "tvm-ffi", "kernel", nullptr};
  for (auto &&[k, v] : root)
    if (!in_list(top, std::string(k.str()).c_str()))
      diag(c, UPK_SEV_ERROR, "buildtoml/unknown-key", k.source(),
           "unknown top-level key '%s' (edition 5 accepts: %s)", std::string(k.str()).c_str(),
           join(top).c_str());
  read_general(c, root);
  if (!read_edition(c, root))
    return;
  read_framework(c, root);
  read_kernels(c, root);
}

int set_path(upk_buildtoml *b, const char *path) {
  b->path = upk_xstrdup(path ? path : "build.toml");
  const char *slash = b->path ? std::strrchr(b->path, '/') : nullptr;
  b->dir = slash ? upk_xstrndup(b->path, slash == b->path ? 1 : (size_t)(slash - b->path))
                 : upk_xstrdup(".");
  return b->path && b->dir ? 0 : -ENOMEM;
}

} // namespace

extern "C" bool upk_bt_cap_parse(const char *s, upk_bt_cap *out) {
  static const int known[][2] = {{7, 0}, {7, 2},  {7, 5},  {8, 0},  {8, 6},  {8, 7},  {8, 9},
                                 {9, 0}, {10, 0}, {10, 1}, {10, 3}, {11, 0}, {12, 0}, {12, 1}};
  int major = 0, minor = 0, n = 0;
  if (!s || std::sscanf(s, "%2d.%1d%n", &major, &minor, &n) != 2 || s[0] < '0' || s[0] > '9')
    return false;
  const char *rest = s + n;
  bool a = *rest == 'a';
  rest += a;
  bool ptx = !std::strcmp(rest, "+PTX");
  if (*rest && !ptx)
    return false;
  bool ok = false;
  for (const auto &k : known)
    ok = ok || (k[0] == major && k[1] == minor);
  if (!ok || (a && major < 9))
    return false;
  *out = upk_bt_cap{};
  out->major = major, out->minor = minor, out->arch_specific = a, out->ptx = ptx;
  return true;
}

extern "C" int upk_buildtoml_parse(const char *text, size_t len, const char *path,
                                   upk_buildtoml *out) {
  std::memset(out, 0, sizeof *out);
  if (set_path(out, path))
    return -ENOMEM;
  ctx c{out};
  try {
    toml::table root = toml::parse(std::string_view(text, len), std::string_view(out->path));
    read_root(c, root);
    // Found table by table; read top to bottom.
    upk_diag *d = out->diags.items;
    std::stable_sort(d, d + out->diags.len, [](const upk_diag &a, const upk_diag &b) {
      return a.range.line < b.range.line ||
             (a.range.line == b.range.line && a.range.col < b.range.col);
    });
  } catch (const toml::parse_error &e) {
    diag(c, UPK_SEV_ERROR, "buildtoml/syntax", e.source(), "%s",
         std::string(e.description()).c_str());
  } catch (const std::bad_alloc &) {
    c.oom = true;
  } catch (...) {
    c.oom = true;
  }
  return c.oom ? -ENOMEM : 0;
}

static const size_t BUILDTOML_MAX = 4u << 20;

extern "C" int upk_buildtoml_load(const char *path, upk_buildtoml *out) {
  std::string p(path ? path : ".");
  struct stat st;
  if (stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    p += "/build.toml";
  /* The project's own build.toml: not a link, never a FIFO, capped (common/fileio.h). */
  char *text = nullptr;
  size_t len = 0;
  int rc = upk_read_in_dir(p.c_str(), BUILDTOML_MAX, &text, &len);
  if (rc == 0) {
    rc = upk_buildtoml_parse(text, len, p.c_str(), out);
    /* What trust judges is what was parsed: the hash takes these bytes, not a second read. */
    char real[PATH_MAX];
    std::string dir = p.substr(0, p.rfind('/') == std::string::npos ? 0 : p.rfind('/'));
    upk_trust_bytes given = {"build.toml", text, len};
    if (rc == 0 && p.size() >= 10 && !p.compare(p.size() - 10, 10, "build.toml") &&
        realpath(dir.empty() ? "." : dir.c_str(), real) &&
        upk_trust_hash_with(real, &given, out->trust_hash))
      out->trust_hash[0] = '\0';
    std::free(text);
    return rc;
  }
  std::memset(out, 0, sizeof *out);
  if (set_path(out, p.c_str()))
    return -ENOMEM;
  ctx c{out};
  diag(c, UPK_SEV_ERROR, "buildtoml/unreadable", toml::source_region{}, "cannot read %s: %s",
       p.c_str(), upk_read_error(rc));
  return c.oom ? -ENOMEM : 0;
}

namespace {
void list_free(upk_bt_list *l) {
  for (size_t i = 0; i < l->n; i++)
    std::free(l->v[i].s);
  std::free(l->v);
}
} // namespace

extern "C" void upk_buildtoml_free(upk_buildtoml *b) {
  for (size_t i = 0; i < b->n_kernels; i++) {
    upk_bt_kernel *k = &b->kernels[i];
    std::free(k->name);
    std::free(k->backend);
    upk_bt_list *lists[] = {&k->src, &k->include, &k->depends, &k->cuda_flags, &k->cxx_flags};
    for (upk_bt_list *l : lists)
      list_free(l);
    for (size_t j = 0; j < k->n_caps; j++)
      std::free(k->caps[j].text.s);
    std::free(k->caps);
  }
  std::free(b->kernels);
  list_free(&b->backends);
  list_free(&b->torch_src);
  list_free(&b->torch_include);
  std::free(b->path);
  std::free(b->dir);
  std::free(b->name);
  std::free(b->framework);
  upk_diags_free(&b->diags);
  std::memset(b, 0, sizeof *b);
}
