/* The library's one way to say something that is not an error: through the host's logger
 * (vks_logger in core.h), never to stderr. */
#ifndef VKS_CORE_LOG_H
#define VKS_CORE_LOG_H

#include "vkskin/core.h"

/* Formats and hands the message to l->func; does nothing (not even the formatting) when l or
 * its func is NULL. Messages longer than 1 KiB are formatted into memory of their size (cut only
 * where none is to be had). */
void vks__log(const vks_logger *l, vks_log_level level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
