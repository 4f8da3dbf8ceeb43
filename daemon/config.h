/** Daemon configuration that is not a command-line flag: model providers. */
#ifndef UPK_CONFIG_H
#define UPK_CONFIG_H

typedef struct upk_provider_def {
  const char *name;        /* anthropic, openai, generic */
  const char *key_env;     /* where the API key comes from */
  const char *url_env;     /* where a base URL override comes from */
  const char *default_url; /* NULL: must be configured (generic servers) */
} upk_provider_def;

/** The known providers, terminated by a zeroed entry. */
extern const upk_provider_def upk_provider_defs[];

/** The base URL in use for a provider (env override or default); NULL if none. */
const char *upk_provider_url(const upk_provider_def *p);
/** Whether a provider can be called: a key (or, for generic, a URL) is set. */
int upk_provider_configured(const upk_provider_def *p);

#endif
