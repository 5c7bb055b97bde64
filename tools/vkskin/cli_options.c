/* The one argv parser of every vkskin command (cli_options.h): options looked up in the
 * command's tables, values stored by the table's setters. Every message is one line on stderr
 * naming the command and the option, and every refusal is a usage error (exit 2) before any
 * work. A repeated option takes its last value, as each command's own loop did; a list option
 * (vks_cli_store_list) keeps them all. */
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"

/* The first group's option called word (its long name, or "-x" for its short form). */
static const vks_cli_option *find(const vks_cli_command *cmd, const char *word, int *group)
{
    for (int g = 0; cmd->groups && cmd->groups[g]; g++)
        for (size_t k = 0; k < cmd->groups[g]->count; k++) {
            const vks_cli_option *o = &cmd->groups[g]->options[k];
            if (!strcmp(word, o->name) || (o->short_name && word[0] == '-' && word[1] == o->short_name && !word[2])) {
                *group = g;
                return o;
            }
        }
    return NULL;
}

int vks_cli_parse(const vks_cli_command *cmd, void *const *targets, int argc, char **argv, int *operands,
                  vks_cli_observer seen, void *user)
{
    *operands = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            vks_cli_help(stdout, cmd);
            return VKS_EXIT_OK;
        }
        if (a[0] != '-' || !a[1]) { /* an operand; "-" is standard input or output */
            if (seen)
                seen(user, -1, argv + i, 1);
            argv[++*operands] = argv[i]; /* behind i: every word still to read stays in place */
            continue;
        }
        int g = 0;
        const vks_cli_option *o = find(cmd, a, &g);
        if (!o) {
            fprintf(stderr, "vkskin %s: unknown option '%s' (see vkskin %s --help)\n", cmd->name, a, cmd->name);
            return VKS_EXIT_USAGE;
        }
        const char *value = NULL;
        if (o->metavar) {
            if (i + 1 >= argc) {
                fprintf(stderr, "vkskin %s: %s needs a value (%s)\n", cmd->name, o->name, o->metavar);
                return VKS_EXIT_USAGE;
            }
            value = argv[i + 1];
        }
        void *field = targets[g] ? (char *)targets[g] + o->offset : NULL;
        if (!o->set(field, o, value))
            return VKS_EXIT_USAGE;
        if (seen)
            seen(user, g, argv + i, value ? 2 : 1);
        i += value != NULL;
    }
    return VKS_CLI_GO_ON;
}

int vks_cli_mode(int argc, char **argv, const char *mode)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], mode))
            return 1;
    return 0;
}

int vks_cli_store_flag(void *field, const vks_cli_option *o, const char *value)
{
    (void)o, (void)value;
    *(int *)field = 1;
    return 1;
}

int vks_cli_store_int(void *field, const vks_cli_option *o, const char *value)
{
    (void)value;
    *(int *)field = (int)o->lo;
    return 1;
}

int vks_cli_store_string(void *field, const vks_cli_option *o, const char *value)
{
    (void)o;
    *(const char **)field = value;
    return 1;
}

/* value within o's range (hi 0: up to most); one line on stderr when not. */
static int in_range(const vks_cli_option *o, uint64_t value, uint64_t most)
{
    uint64_t hi = o->hi ? o->hi : most;
    if (value >= o->lo && value <= hi)
        return 1;
    if (hi == most) /* zero would silently mean a default */
        fprintf(stderr, "vkskin: %s must be at least %" PRIu64 "\n", o->name, o->lo);
    else
        fprintf(stderr, "vkskin: %s %" PRIu64 ": expected %" PRIu64 " to %" PRIu64 "\n", o->name, value, o->lo, hi);
    return 0;
}

int vks_cli_store_u32(void *field, const vks_cli_option *o, const char *value)
{
    uint32_t v;
    if (!vks_cli_parse_u32(o->name, value, &v) || !in_range(o, v, UINT32_MAX))
        return 0;
    *(uint32_t *)field = v;
    return 1;
}

int vks_cli_store_u64(void *field, const vks_cli_option *o, const char *value)
{
    uint64_t v;
    if (!vks_cli_parse_u64(o->name, value, &v) || !in_range(o, v, UINT64_MAX))
        return 0;
    *(uint64_t *)field = v;
    return 1;
}

int vks_cli_store_list(void *field, const vks_cli_option *o, const char *value)
{
    vks_cli_list *l = field;
    if (l->most && l->count == l->most) {
        fprintf(stderr, "vkskin: at most %u %s\n", l->most, o->name);
        return 0;
    }
    l->items[l->count++] = value;
    return 1;
}
