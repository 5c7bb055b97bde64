/* Result names and error records. The first failure wins: a reader that fails deep inside a
 * structure records the precise cause, and the callers unwinding past it do not overwrite it. */
#include "vkskin/core.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *vks_result_str(vks_result r)
{
    switch (r) {
    case VKS_OK: return "ok";
    case VKS_ERR_TRUNCATED: return "truncated";
    case VKS_ERR_FORMAT: return "format error";
    case VKS_ERR_UNSUPPORTED: return "unsupported";
    case VKS_ERR_LIMIT: return "over a limit";
    case VKS_ERR_NOMEM: return "out of memory";
    case VKS_ERR_IO: return "i/o error";
    case VKS_ERR_INVALID: return "invalid";
    case VKS_ERR_VULKAN: return "vulkan error";
    case VKS_ERR_NO_DEVICE: return "no vulkan device";
    }
    return "unknown result";
}

vks_result vks_error_set(vks_error *err, vks_result code, uint64_t offset, const char *path,
                         const char *fmt, ...)
{
    if (!err || err->code != VKS_OK)
        return code;
    err->code = code;
    err->offset = offset;
    err->file[0] = 0;
    err->line = 0;
    snprintf(err->path, sizeof err->path, "%s", path ? path : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return code;
}

const char *vks_error_format(const vks_error *err, const char *file, char *buf, size_t size)
{
    if (!buf || size == 0)
        return "";
    char where[48] = "";
    if (err->file[0]) {
        /* the failure lies in another file (a model.cfg): an offset into the input would
           point at unrelated bytes, so name that file and its line instead */
        file = err->file;
        if (err->line)
            snprintf(where, sizeof where, "%u: ", err->line);
        else
            snprintf(where, sizeof where, " ");
    } else if (err->offset != VKS_NO_OFFSET) {
        snprintf(where, sizeof where, "0x%llx: ", (unsigned long long)err->offset);
    }
    snprintf(buf, size, "%s%s%s%s%s%s (%s)", file ? file : "", file ? ":" : "", where,
             err->path, err->path[0] ? ": " : "", err->msg, vks_result_str(err->code));
    return buf;
}
