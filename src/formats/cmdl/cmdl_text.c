/* Text scanners for the .cmdl reader: whitespace-separated number lists and the reference
 * strings ("Shapes[3]", Materials["name"]). Numbers use '.' whatever the host program's
 * locale (notes §2): vks_cmdl_read and vks_cskla_read run under the C locale's numbers
 * (core/c_numeric.h), as every library call that reads or writes text numbers does. */
#include "cmdl_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* Only decimal numbers: sign, digits, one '.', exponent. Rejects nan, inf and hex floats,
 * which strtod would take. */
static int plain_number(const char *s, size_t n)
{
    size_t i = 0, digits = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++, digits++;
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++, digits++;
    }
    if (!digits)
        return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t ed = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++, ed++;
        if (!ed)
            return 0;
    }
    return i == n;
}

static int convert(const char *s, size_t n, double *out)
{
    char tok[64];
    if (n == 0 || n >= sizeof tok || !plain_number(s, n))
        return 0;
    memcpy(tok, s, n);
    tok[n] = 0;
    double v = strtod(tok, NULL);
    if (!isfinite(v))
        return 0;
    *out = v;
    return 1;
}

int vks__cmdl_numbers(const char *text, size_t len, cmdl_number_fn fn, void *user, char bad[32])
{
    int ok = 1;
    size_t i = 0;
    while (i < len) {
        while (i < len && is_space(text[i]))
            i++;
        size_t start = i;
        while (i < len && !is_space(text[i]))
            i++;
        if (i == start)
            break;
        double v;
        if (!convert(text + start, i - start, &v)) {
            size_t n = i - start < 24 ? i - start : 24;
            memcpy(bad, text + start, n);
            bad[n] = 0;
            ok = 0;
            break;
        }
        if (!fn(user, v)) {
            bad[0] = 0;
            ok = 0;
            break;
        }
    }
    return ok;
}

int vks__cmdl_number(const char *s, double *out)
{
    size_t n = strlen(s);
    while (n && is_space(*s))
        s++, n--;
    while (n && is_space(s[n - 1]))
        n--;
    return convert(s, n, out);
}

/* Skips surrounding whitespace and the expected prefix; returns the rest or NULL. */
static const char *after_prefix(const char **text, size_t *len, const char *prefix)
{
    const char *s = *text;
    size_t n = *len;
    while (n && is_space(*s))
        s++, n--;
    while (n && is_space(s[n - 1]))
        n--;
    size_t k = strlen(prefix);
    if (n < k || memcmp(s, prefix, k) != 0)
        return NULL;
    *text = s + k;
    *len = n - k;
    return *text;
}

int vks__cmdl_ref_index(const char *text, size_t len, const char *prefix, uint32_t *out)
{
    if (!after_prefix(&text, &len, prefix) || len < 3 || text[0] != '[' || text[len - 1] != ']')
        return 0;
    uint64_t v = 0;
    for (size_t i = 1; i + 1 < len; i++) {
        if (text[i] < '0' || text[i] > '9' || v > UINT32_MAX / 10)
            return 0;
        v = v * 10 + (uint64_t)(text[i] - '0');
    }
    if (v > UINT32_MAX)
        return 0;
    *out = (uint32_t)v;
    return 1;
}

int vks__cmdl_ref_name(const char *text, size_t len, const char *prefix, char *buf, size_t size)
{
    if (!after_prefix(&text, &len, prefix) || len < 4 || text[0] != '[' || text[1] != '"')
        return 0;
    size_t i = 2;
    while (i < len && text[i] != '"')
        i++;
    if (i + 1 >= len || text[i + 1] != ']')
        return 0;
    size_t n = i - 2;
    if (n >= size)
        return 0;
    memcpy(buf, text + 2, n);
    buf[n] = 0;
    return 1; /* anything after "]" (an @file: suffix) names another file: ignored */
}
