/* Help from the option tables (cli_options.h): `vkskin COMMAND --help`, `vkskin help COMMAND`,
 * and the references built from the same records: `vkskin help --man` (the vkskin(1) page that
 * CMake generates and installs) and `vkskin help --markdown` (docs/cli.md, which a test holds
 * equal to what this prints). `vkskin help --check` fails when a command or an option has no
 * description, and --man and --markdown refuse to write a reference with such a gap. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"

enum { HELP_WIDTH = 100, HELP_INDENT = 24 };

/* Prints text from column *col, wrapping words at HELP_WIDTH to column indent; "\n" breaks the
 * line, "\n\n" leaves a blank one. Ends with the column it reached. */
static void wrap(FILE *f, const char *text, int indent, int *col)
{
    for (const char *p = text; *p;) {
        if (*p == '\n') {
            fprintf(f, "\n%s%*s", p[1] == '\n' ? "\n" : "", indent, "");
            p += p[1] == '\n' ? 2 : 1;
            *col = indent;
            continue;
        }
        if (*p == ' ') {
            p++;
            continue;
        }
        int n = (int)strcspn(p, " \n");
        if (*col > indent && *col + 1 + n > HELP_WIDTH) {
            fprintf(f, "\n%*s", indent, "");
            *col = indent;
        }
        *col += fprintf(f, "%s%.*s", *col > indent ? " " : "", n, p);
        p += n;
    }
}

int vks__cli_shadowed(const vks_cli_command *cmd, int g, const vks_cli_option *o)
{
    for (int e = 0; e < g; e++)
        for (size_t k = 0; k < cmd->groups[e]->count; k++)
            if (!strcmp(cmd->groups[e]->options[k].name, o->name))
                return 1;
    return 0;
}

/* The usage lines: "\n" in the synopsis continues a line under the first, "\n\n" starts
 * another form of the command. */
static void print_synopsis(FILE *f, const char *lead, const vks_cli_command *cmd)
{
    int lead_len = (int)strlen(lead), name_len = (int)strlen(cmd->name) + 8; /* "vkskin NAME " */
    fprintf(f, "%svkskin %s ", lead, cmd->name);
    for (const char *s = cmd->synopsis; *s; s++) {
        if (*s != '\n')
            fputc(*s, f);
        else if (s[1] == '\n')
            fprintf(f, "\n%*svkskin %s ", lead_len, "", cmd->name), s++;
        else
            fprintf(f, "\n%*s", lead_len + name_len, "");
    }
    fputc('\n', f);
}

const char *vks__cli_text(const char *text, char *buf, size_t cap)
{
    static const char word[] = "{clip formats}";
    const char *at = text ? strstr(text, word) : NULL;
    if (!at)
        return text;
    char list[512];
    snprintf(buf, cap, "%.*s%s%s", (int)(at - text), text, vks_clip_format_list(list, sizeof list), at + sizeof word - 1);
    return buf;
}

static void print_option(FILE *f, const vks_cli_option *o)
{
    char buf[1024];
    int col = fprintf(f, "  ");
    if (o->short_name)
        col += fprintf(f, "-%c, ", o->short_name);
    col += fprintf(f, "%s%s%s", o->name, o->metavar ? " " : "", o->metavar ? o->metavar : "");
    /* a long name pushes the summary along its line; the rest wraps to the column */
    col += col < HELP_INDENT - 1 ? fprintf(f, "%*s", HELP_INDENT - col, "") : fprintf(f, " ");
    wrap(f, o->summary, HELP_INDENT, &col);
    if (o->details) {
        fprintf(f, "\n%*s", HELP_INDENT, "");
        col = HELP_INDENT;
        wrap(f, vks__cli_text(o->details, buf, sizeof buf), HELP_INDENT, &col);
    }
    fputc('\n', f);
}

void vks_cli_help(FILE *f, const vks_cli_command *cmd)
{
    if (cmd->verbatim) {
        cmd->verbatim(f);
        return;
    }
    print_synopsis(f, "usage: ", cmd);
    int col = 0;
    fputc('\n', f);
    wrap(f, cmd->description, 0, &col);
    fputc('\n', f);
    for (int g = 0; cmd->groups[g]; g++) {
        fprintf(f, "\n%s:\n", cmd->groups[g]->title);
        for (size_t k = 0; k < cmd->groups[g]->count; k++)
            if (!vks__cli_shadowed(cmd, g, &cmd->groups[g]->options[k]))
                print_option(f, &cmd->groups[g]->options[k]);
        if (g == 0) /* the parser's own, with the command's options */
            fprintf(f, "  -h, --help%*sthis help\n", HELP_INDENT - 12, "");
    }
    if (cmd->epilogue) {
        col = 0;
        fputc('\n', f);
        wrap(f, cmd->epilogue, 0, &col);
        fputc('\n', f);
    }
}

/* The library's format registry: a format added there shows here (and in the references). */
void vks__cli_formats(FILE *f, const char *lead)
{
    for (uint32_t i = 0; i < vks_format_count(); i++) {
        const vks_format_info *fi = vks_format_at(i);
        int col = fprintf(f, "%s%-17s", lead, fi->title);
        for (const char *const *e = fi->model_extensions; *e; e++)
            col += fprintf(f, " %s", *e);
        if (fi->side_file)
            col += fprintf(f, " (+ %s)", fi->side_file);
        fprintf(f, "%*s", col < 40 ? 40 - col : 1, "");
        for (const char *const *e = fi->clip_extensions; e && *e; e++)
            fprintf(f, "%s%s", e == fi->clip_extensions ? "" : " ", *e);
        fprintf(f, "\n");
    }
}

void vks_cli_usage(FILE *f)
{
    fprintf(f, "usage: vkskin COMMAND [options]   (vkskin COMMAND --help, or vkskin help COMMAND, for each)\n\n"
               "commands:\n");
    for (size_t i = 0; i < vks_cli_command_count; i++)
        if (!strchr(vks_cli_commands[i]->name, ' ')) /* a mode (bench --crowd) is in its command's help */
            fprintf(f, "  %-10s %s\n", vks_cli_commands[i]->name, vks_cli_commands[i]->summary);
    fprintf(f, "\nformats (model files; clip files; pose JSON plays on every model):\n");
    vks__cli_formats(f, "  ");
    fprintf(f, "\nexit codes: 0 ok, 1 bad input, 2 usage, 3 validation failed, 4 no Vulkan device,\n"
               "            5 runtime failure (Vulkan, memory, output), 6 bind-pose check failed\n"
               "\nreferences: vkskin help --man (the vkskin(1) page), vkskin help --markdown (docs/cli.md)\n");
}
