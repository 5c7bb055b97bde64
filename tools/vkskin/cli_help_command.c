/* `vkskin help [COMMAND | --man | --markdown | --check]`: the one caller of both the help
 * (cli_help.c) and the references (cli_reference.c), so that the references use the help's
 * helpers without the help calling back into them. `--check` fails when a command or an option
 * has no description, and --man and --markdown refuse to write a reference with such a gap. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"

/* ---- the check: every command and option described ---- */

/* VKSKIN_TEST_UNDESCRIBED="COMMAND OPTION" makes that option count as undescribed, so a test
 * can show that the check fails (tests/cli/cli_reference.sh). */
static int undescribed(const vks_cli_command *cmd, const vks_cli_option *o)
{
    const char *t = getenv("VKSKIN_TEST_UNDESCRIBED");
    size_t n = strlen(cmd->name);
    if (t && !strncmp(t, cmd->name, n) && t[n] == ' ' && !strcmp(t + n + 1, o->name))
        return 1;
    return !o->summary || !*o->summary;
}

/* Prints one line per gap; the number of gaps. */
static int check_descriptions(void)
{
    int gaps = 0;
    for (size_t i = 0; i < vks_cli_command_count; i++) {
        const vks_cli_command *c = vks_cli_commands[i];
        if (!c->summary || !*c->summary || (!c->verbatim && (!c->synopsis || !c->description || !*c->description))) {
            fprintf(stderr, "vkskin help: the command %s has no summary, synopsis or description\n", c->name);
            gaps++;
        }
        for (int g = 0; !c->verbatim && c->groups[g]; g++) {
            if (!c->groups[g]->title || !*c->groups[g]->title)
                fprintf(stderr, "vkskin help: %s: group %d has no title\n", c->name, g), gaps++;
            for (size_t k = 0; k < c->groups[g]->count; k++)
                if (undescribed(c, &c->groups[g]->options[k])) {
                    fprintf(stderr, "vkskin help: %s: the option %s has no description\n", c->name,
                            c->groups[g]->options[k].name);
                    gaps++;
                }
        }
    }
    return gaps;
}

static const vks_cli_command *command_named(const char *name)
{
    for (size_t i = 0; i < vks_cli_command_count; i++)
        if (!strcmp(vks_cli_commands[i]->name, name))
            return vks_cli_commands[i];
    return NULL;
}

int vks_cli_help_command(int argc, char **argv)
{
    if (argc < 2) {
        vks_cli_usage(stdout);
        return VKS_EXIT_OK;
    }
    const char *a = argv[1];
    int reference = !strcmp(a, "--man") || !strcmp(a, "--markdown");
    if (reference || !strcmp(a, "--check")) {
        if (argc > 2) {
            fprintf(stderr, "vkskin help: %s takes nothing more ('%s')\n", a, argv[2]);
            return VKS_EXIT_USAGE;
        }
        if (check_descriptions()) {
            fprintf(stderr, "vkskin help: every command and option needs a description in its table\n");
            return VKS_EXIT_RUNTIME;
        }
        if (!strcmp(a, "--man"))
            vks_cli_man(stdout);
        else if (reference)
            vks_cli_markdown(stdout);
        return fflush(stdout) == 0 && !ferror(stdout) ? VKS_EXIT_OK : VKS_EXIT_RUNTIME;
    }
    /* help COMMAND, or help bench --crowd */
    char name[64];
    snprintf(name, sizeof name, "%s%s%s", a, argc > 2 ? " " : "", argc > 2 ? argv[2] : "");
    const vks_cli_command *cmd = argc <= 3 ? command_named(name) : NULL;
    if (!cmd) {
        fprintf(stderr, "vkskin help: unknown command '%s' (vkskin help lists them)\n", name);
        return VKS_EXIT_USAGE;
    }
    vks_cli_help(stdout, cmd);
    return VKS_EXIT_OK;
}
