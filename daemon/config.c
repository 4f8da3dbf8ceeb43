#include "config.h"

#include <stdlib.h>
#include <string.h>

const upk_provider_def upk_provider_defs[] = {
    {"anthropic", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "https://api.anthropic.com"},
    {"openai", "OPENAI_API_KEY", "OPENAI_BASE_URL", "https://api.openai.com/v1"},
    {"generic", "GENERIC_API_KEY", "GENERIC_BASE_URL", NULL},
    {0},
};

static const char *env(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

const char *upk_provider_url(const upk_provider_def *p) {
  const char *v = env(p->url_env);
  return v ? v : p->default_url;
}

int upk_provider_configured(const upk_provider_def *p) {
  /* Local OpenAI-compatible servers usually need no key, only a URL. */
  return p->default_url ? env(p->key_env) != NULL : env(p->url_env) != NULL;
}
