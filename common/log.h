/** Daemon logging: stderr (never stdout, which carries only protocol), an
 * optional log file, and an optional sink that forwards lines to the client
 * (window/logMessage or MCP notifications/message). */
#ifndef UPK_LOG_H
#define UPK_LOG_H

typedef enum { UPK_LOG_ERROR = 0, UPK_LOG_WARN, UPK_LOG_INFO, UPK_LOG_DEBUG } upk_log_level;

typedef void (*upk_log_sink)(void *ud, upk_log_level level, const char *line);

/** Messages above `level` are dropped. Default: UPK_LOG_WARN. */
void upk_log_set_level(upk_log_level level);
upk_log_level upk_log_get_level(void);
/** Also append to this file. Returns 0 or a negative errno. */
int upk_log_open_file(const char *path);
void upk_log_close_file(void);
/** Forward messages at or below `max` to a sink (NULL to stop). */
void upk_log_set_sink(upk_log_sink sink, void *ud, upk_log_level max);

void upk_log(upk_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define upk_error(...) upk_log(UPK_LOG_ERROR, __VA_ARGS__)
#define upk_warn(...) upk_log(UPK_LOG_WARN, __VA_ARGS__)
#define upk_info(...) upk_log(UPK_LOG_INFO, __VA_ARGS__)
#define upk_debug(...) upk_log(UPK_LOG_DEBUG, __VA_ARGS__)

#endif
