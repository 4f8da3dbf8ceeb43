/* Parsing skills for the index, on helper threads while the scan stores.
 *
 * A first scan is half parsing (YAML, cmark, token count, lenient
 * validation) and half SQLite (FTS5 inserts). SQLite stays on the scan's
 * thread; parsing needs no shared state, so helper threads parse ahead while
 * the scan thread stores in order, and the scan thread parses too whenever
 * the item it needs next has not been taken. Helpers never run more than
 * WINDOW items ahead of what was stored, which bounds the memory held by
 * parsed skills however large they are. */
#include "skills/index/db_int.h"
#include "skills/index/parse_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#endif

#include "skills/skill.h"
#include "skills/validate.h"
#include "common/xalloc.h"

#define MAX_HELPERS 3
#define WINDOW 256
#define HELPER_NICE 10

static char *trimmed(const char *s) {
  if (!s)
    return upk_xstrdup("");
  while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
    s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
    n--;
  return upk_xstrndup(s, n);
}

/* The directory name (when it differs from the skill's name) and the
 * headings. The directory name goes with the headings, not the name: in
 * collections it often carries the publisher and repository
 * ("owner--repo--skill"), words that say nothing about the task and would
 * weigh as much as the skill's own name. Agents such as Claude Code still
 * invoke a skill by its directory, so it is searchable. */
static char *name_column(const upk_skill *s, const char *name, const char *dirname) {
  upk_buf b = UPK_BUF_INIT(SIZE_MAX);
  upk_buf_puts(&b, "");
  if (strcmp(name, dirname)) {
    upk_buf_puts(&b, dirname);
    upk_buf_puts(&b, "\n");
  }
  for (size_t i = 0; i < s->n_headings; i++) {
    upk_buf_puts(&b, s->headings[i].text ? s->headings[i].text : "");
    upk_buf_puts(&b, "\n");
  }
  return b.data;
}

/* The body as it is searched: prose only, at most UPK_INDEX_BODY_MAX bytes.
 * Code blocks are left out: a task is said in words, and a block's
 * identifiers and flags would match words of the task by accident while
 * making the body long (bm25 then weighs every real match less). Past the
 * first pages a body holds examples and reference tables; a skill's subject
 * is in its name, description, headings and opening prose. Stopping there
 * also bounds what a registry-sized first scan has to tokenize. */
static char *searched_body(const upk_skill *s) {
  const char *body = s->body ? s->body : "";
  size_t len = strlen(body), at = 0;
  upk_buf b = UPK_BUF_INIT(SIZE_MAX);
  upk_buf_puts(&b, "");
  for (size_t i = 0; i <= s->n_code && b.len < UPK_INDEX_BODY_MAX; i++) {
    size_t end = i < s->n_code ? s->code[i].start : len;
    if (end > len)
      end = len;
    if (end > at) {
      size_t n = end - at;
      if (b.len + n > UPK_INDEX_BODY_MAX) { /* cut between words */
        n = UPK_INDEX_BODY_MAX - b.len;
        while (n && body[at + n] != ' ' && body[at + n] != '\n')
          n--;
      }
      upk_buf_append(&b, body + at, n);
    }
    if (i < s->n_code && s->code[i].end > at) {
      at = s->code[i].end;
      upk_buf_puts(&b, "\n");
    }
  }
  return b.data;
}

void upk__ix_parse(const char *dir, upk__ix_parsed *p) {
  memset(p, 0, sizeof *p);
  upk_skill s = {0};
  p->rc = upk_skill_load(dir, &s, &p->d);
  if (p->rc < 0) {
    upk_skill_free(&s);
    return;
  }
  /* Lenient mode, as agents load skills: what makes the skill unusable is an
   * error, everything else (a repaired YAML value, a name that differs from
   * the directory) a warning stored with the skill. */
  upk_skill_validate(&s, UPK_VALIDATE_LENIENT, &p->d);
  const char *base = strrchr(dir, '/');
  base = base ? base + 1 : dir;
  p->name = trimmed(s.name);
  p->desc = trimmed(s.description);
  if (p->name && !*p->name) { /* lenient: a skill without a name is known by its directory */
    free(p->name);
    p->name = upk_xstrdup(base);
  }
  p->name_col = p->name ? name_column(&s, p->name, base) : NULL;
  p->body = searched_body(&s);
  p->packed = upk__ix_diags_pack(&p->d);
  p->usable = s.has_frontmatter && p->desc && *p->desc && !upk_diags_count(&p->d, UPK_SEV_ERROR);
  p->tokens = s.tokens;
  if (!p->name || !p->desc || !p->name_col || !p->body || !p->packed)
    p->rc = -ENOMEM;
  upk_skill_free(&s);
}

void upk__ix_parsed_free(upk__ix_parsed *p) {
  upk_diags_free(&p->d);
  free(p->name);
  free(p->desc);
  free(p->name_col);
  free(p->body);
  free(p->packed);
  memset(p, 0, sizeof *p);
}

/* ---- the pool ---- */

struct upk__ix_pool {
  const char *const *dirs;
  upk__ix_parsed *out;
  size_t n;
  atomic_size_t next;   /* the next item nobody has taken */
  atomic_size_t stored; /* items the scan thread is done with: helpers stay within WINDOW */
  atomic_uchar *ready;
  pthread_mutex_t mu;
  pthread_cond_t cv; /* an item got ready, or the scan thread moved on */
  pthread_t th[MAX_HELPERS];
  int n_th;
  bool stop;
};

static void mark_ready(upk__ix_pool *p, size_t i) {
  pthread_mutex_lock(&p->mu);
  atomic_store(&p->ready[i], 1);
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
}

/* Take the next item and parse it; false when none is left. */
static bool take_one(upk__ix_pool *p) {
  size_t i = atomic_fetch_add(&p->next, 1);
  if (i >= p->n)
    return false;
  upk__ix_parse(p->dirs[i], &p->out[i]);
  mark_ready(p, i);
  return true;
}

/* Helpers run at a lower priority than the scan thread: on 2 cores three threads shared
 * them evenly, and the scan thread, which stores in order and so sets the pace, waited
 * its turn (60,000 skills: 20.7 -> 18.2 s). The daemon's loop thread keeps its priority
 * too, so requests during a first index are answered as quickly. */
static void lower_priority(void) {
#ifdef __linux__
  (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), HELPER_NICE);
#endif
}

static void *helper(void *arg) {
  upk__ix_pool *p = arg;
  lower_priority();
  for (;;) {
    pthread_mutex_lock(&p->mu);
    while (!p->stop && atomic_load(&p->next) < p->n &&
           atomic_load(&p->next) >= atomic_load(&p->stored) + WINDOW)
      pthread_cond_wait(&p->cv, &p->mu);
    bool stop = p->stop;
    pthread_mutex_unlock(&p->mu);
    if (stop || !take_one(p))
      return NULL;
  }
}

/* As many helpers as cores, although the scan thread is one more: it stores in SQLite, and it
 * waited for parsing a third of the time with one helper fewer (10,000 skills on 2 cores: the
 * first index 3.6 -> 3.0 s, and less CPU). */
static int helper_count(size_t n) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  long k = cpus > 1 ? cpus : 0;
  if (k > MAX_HELPERS)
    k = MAX_HELPERS;
  return n < 8 ? 0 : (int)k; /* a refresh of a few skills: not worth a thread */
}

int upk__ix_pool_start(upk__ix_pool **out, const char *const *dirs, upk__ix_parsed *parsed,
                       size_t n) {
  upk__ix_pool *p = upk_xcalloc(1, sizeof *p);
  if (!p || !(p->ready = upk_xcalloc(n ? n : 1, sizeof *p->ready))) {
    free(p);
    return -ENOMEM;
  }
  p->dirs = dirs;
  p->out = parsed;
  p->n = n;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  for (int k = helper_count(n); p->n_th < k; p->n_th++)
    if (pthread_create(&p->th[p->n_th], NULL, helper, p))
      break; /* fewer helpers: the scan thread parses the rest itself */
  *out = p;
  return 0;
}

void upk__ix_pool_wait(upk__ix_pool *p, size_t i) {
  if (i && atomic_load(&p->stored) < i) { /* i-1 was stored: helpers may go further */
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->stored, i);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
  }
  while (!atomic_load(&p->ready[i])) {
    if (atomic_load(&p->next) <= i && take_one(p))
      continue;
    pthread_mutex_lock(&p->mu);
    while (!atomic_load(&p->ready[i]))
      pthread_cond_wait(&p->cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
  }
}

void upk__ix_pool_done(upk__ix_pool *p) {
  if (!p)
    return;
  pthread_mutex_lock(&p->mu);
  p->stop = true;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  for (int k = 0; k < p->n_th; k++)
    pthread_join(p->th[k], NULL);
  /* what a helper parsed but nobody stored (an aborted batch) */
  for (size_t i = 0; i < p->n; i++)
    if (atomic_load(&p->ready[i]))
      upk__ix_parsed_free(&p->out[i]);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->cv);
  free(p->ready);
  free(p);
}
