/* vks_list_side_files: which format a file is (by its first bytes, then its name, as the
 * readers are chosen), and that format's list of the files a read of it reads or names. */
#include <string.h>
#include <sys/stat.h>

#include "registry.h"

enum { PROBE_BYTES = 4096 }; /* enough for every probe's magic and NW4C's text search */

vks_result vks_list_side_files(const vks_read_options *opt, const char *path, vks_side_file_fn visit, void *user,
                               vks_error *err)
{
    if (!path || !visit)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "file", "path and visit must not be NULL");
    vks_read_options o = vks_read_options_defaults(opt);
    struct stat st;
    /* on the file system only a regular file is looked into: a pipe read here would be lost
       to its reader */
    if (!o.file.read && (stat(path, &st) != 0 || !S_ISREG(st.st_mode)))
        return VKS_OK;
    unsigned char head[PROBE_BYTES];
    long n = vks__file_read_prefix(&o, path, head, sizeof head);
    if (n < 0)
        return VKS_OK;
    const vks__format *f = vks__format_of_model(head, (size_t)n, path);
    if (!f)
        vks__clip_kind_of(head, (size_t)n, path, &f);
    if (!f || !f->side_files)
        return VKS_OK;
    return f->side_files(&o, path, visit, user, err);
}
