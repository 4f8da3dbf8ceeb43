/* Before an evaluation or a generation spends anything (a call, a minute, a run folder): every
 * model it would call has what it needs. A provider's key is set (a local OpenAI-compatible
 * server needs its base URL instead), a base URL the user set answers a TCP connect within
 * READY_CONNECT_MS, and an agent CLI's program is on PATH. Otherwise the request is refused
 * naming every way to get a model, in a dry run too: a run without a model is no result
 * (docs/eval.md, "Before a run"). Thread pool (the load step). */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon/eval/eval_methods.h"
#include "daemon/eval/eval_methods_int.h"
#include "common/xalloc.h"

enum { READY_CONNECT_MS = 3000 };

#define WAYS                                                                                       \
  "; to evaluate or generate, give one of: ANTHROPIC_API_KEY (models like sonnet, "                \
  "anthropic.<id>), OPENAI_API_KEY (openai.<id>), a local OpenAI-compatible server at "            \
  "GENERIC_BASE_URL (generic.<id>; GENERIC_API_KEY if it needs one), or an agent CLI on PATH "     \
  "(-m agent:claude-code, -m agent:codex)"

/* host and port of an http(s) URL: scheme://[user@]host[:port][/...], host may be [v6]. */
static int url_host_port(const char *url, char *host, size_t hlen, char *port, size_t plen) {
  const char *p = strstr(url, "://");
  if (!p)
    return -1;
  snprintf(port, plen, "%s", !strncmp(url, "https", 5) ? "443" : "80");
  p += 3;
  size_t n = strcspn(p, "/?#");
  const char *at = memchr(p, '@', n);
  if (at) {
    n -= (size_t)(at + 1 - p);
    p = at + 1;
  }
  const char *end = p + n, *colon = NULL;
  if (*p == '[') { /* [v6]:port */
    const char *close = memchr(p, ']', n);
    if (!close)
      return -1;
    snprintf(host, hlen, "%.*s", (int)(close - p - 1), p + 1);
    colon = close + 1 < end && close[1] == ':' ? close + 1 : NULL;
  } else {
    colon = memchr(p, ':', n);
    snprintf(host, hlen, "%.*s", (int)((colon ? colon : end) - p), p);
  }
  if (colon && colon + 1 < end)
    snprintf(port, plen, "%.*s", (int)(end - colon - 1), colon + 1);
  return *host ? 0 : -1;
}

/* One non-blocking connect, waited for at most ms. 0, or an errno. */
static int connect_one(const struct addrinfo *a, int ms) {
  int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
  if (fd < 0)
    return errno;
  int rc = connect(fd, a->ai_addr, a->ai_addrlen) ? errno : 0;
  if (rc == EINPROGRESS) {
    struct pollfd p = {fd, POLLOUT, 0};
    socklen_t len = sizeof rc;
    int n = poll(&p, 1, ms);
    rc = n == 0 ? ETIMEDOUT : n < 0 ? errno : 0;
    if (!rc && getsockopt(fd, SOL_SOCKET, SO_ERROR, &rc, &len))
      rc = errno;
  }
  close(fd);
  return rc;
}

/* Whether something listens at url: NULL, or why not (static text). */
static const char *unreachable(const char *url, char *why, size_t len) {
  char host[256], port[16];
  struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
  if (url_host_port(url, host, sizeof host, port, sizeof port)) {
    snprintf(why, len, "'%.200s' is no http(s) URL", url);
    return why;
  }
  int g = getaddrinfo(host, port, &hints, &res);
  if (g) {
    snprintf(why, len, "%.200s: %s", host, gai_strerror(g));
    return why;
  }
  int rc = ETIMEDOUT;
  for (const struct addrinfo *a = res; a && rc; a = a->ai_next)
    rc = connect_one(a, READY_CONNECT_MS);
  freeaddrinfo(res);
  if (!rc)
    return NULL;
  snprintf(why, len, "nothing answers at %.200s (%s:%s: %s)", url, host, port, strerror(rc));
  return why;
}

static bool on_path(const char *prog) {
  if (strchr(prog, '/'))
    return access(prog, X_OK) == 0;
  const char *path = getenv("PATH");
  char *copy = upk_xstrdup(path ? path : "/usr/bin:/bin"), *save = NULL;
  bool found = false;
  for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
    char *full = upk_xasprintf("%s/%s", *d ? d : ".", prog);
    found = access(full, X_OK) == 0;
    free(full);
  }
  free(copy);
  return found;
}

static int agent_ready(ecall *c, const char *id) {
  char name[64], model[256], err[400];
  upk_agent_def d = {0};
  if (upk_agent_parse_id(id, name, sizeof name, model, sizeof model) ||
      upk_agent_def_get(c->cfg.agents, name, &d, err, sizeof err))
    return 0; /* resolving it already said what is wrong */
  const char *prog = d.command && d.command[0] ? d.command[0] : "";
  int rc = on_path(prog) ? 0
                         : upk__em_fail(c, UPK_RPC_REQUEST_FAILED,
                                        "%s: its program '%.100s' is not on PATH: install it, or "
                                        "set agents.%s.command in the config" WAYS,
                                        id, prog, name);
  upk_agent_def_free(&d);
  return rc;
}

static int model_ready(ecall *c, const upk_model *m) {
  if (!strncmp(m->name, "agent:", 6))
    return agent_ready(c, m->name);
  const upk_provider_def *p = m->provider;
  if (!p)
    return 0;
  if (!upk_provider_configured(p))
    return upk__em_fail(c, UPK_RPC_REQUEST_FAILED, "%s needs %s, which is not set" WAYS, m->name,
                        p->default_url ? p->key_env : p->url_env);
  const char *url = getenv(p->url_env);
  char why[400];
  if (url && *url && unreachable(url, why, sizeof why))
    return upk__em_fail(c, UPK_RPC_REQUEST_FAILED, "%s: %s=%s: %s" WAYS, m->name, p->url_env, url,
                        why);
  return 0;
}

int upk__em_ready(ecall *c, const upk_model *const *extra) {
  for (size_t i = 0; i < c->n_models; i++)
    if (model_ready(c, &c->models[i]))
      return -1;
  if (c->has_grader && model_ready(c, &c->grader))
    return -1;
  for (size_t i = 0; extra && extra[i]; i++)
    if (model_ready(c, extra[i]))
      return -1;
  return 0;
}
