/* The command line as data: each command is a record (its synopsis, prose and option groups)
 * and each option a row of a table (name, short form, value's name, where it goes, its
 * description). One parser (cli_options.c) reads every command's argv from its tables, and
 * one printer (cli_help.c) writes --help, `vkskin help COMMAND`, the vkskin(1) man page and
 * docs/cli.md from the same tables, so that the reference cannot say what the parser does not
 * do, and an option without a description fails the build (vkskin help --check).
 *
 * Text in the tables: a paragraph is one string; "\n" forces a line break (a list inside a
 * paragraph), "\n\n" starts a new paragraph. The printers wrap the lines themselves. */
#ifndef VKSKIN_CLI_OPTIONS_H
#define VKSKIN_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct vks_cli_option;

/* Stores an option's value into field (the group's target plus the option's offset): value
 * is NULL for a flag. Returns 1, or 0 after printing why the value is refused (exit 2). */
typedef int (*vks_cli_setter)(void *field, const struct vks_cli_option *o, const char *value);

typedef struct vks_cli_option {
    const char *name;      /* "--out": the name users type, exactly */
    char short_name;       /* 'h' for -h; 0: none */
    const char *metavar;   /* the value's name ("FILE"); NULL: a flag that takes none */
    vks_cli_setter set;    /* one of the vks_cli_store_* below, or the command's own */
    size_t offset;         /* where set stores, from the group's target */
    uint64_t lo, hi;       /* vks_cli_store_u32/_u64: the range (hi 0: the type's); _int: lo is stored */
    const char *summary;   /* one line: what it does (required: vkskin help --check) */
    const char *details;   /* more, or NULL */
} vks_cli_option;

typedef struct vks_cli_group {
    const char *title;             /* "pose options" */
    const vks_cli_option *options;
    size_t count;
} vks_cli_group;

#define VKS_CLI_GROUP(title, table) {title, table, sizeof table / sizeof *table}

typedef struct vks_cli_command {
    const char *name;        /* "deform"; "bench --crowd" for a mode with options of its own */
    const char *summary;     /* the line in `vkskin --help` */
    const char *synopsis;    /* what follows "vkskin NAME" in the usage line ("\n": another form) */
    const char *description; /* paragraphs before the options */
    const char *epilogue;    /* paragraphs after them (outputs, exit codes) */
    const vks_cli_group *const *groups; /* NULL-terminated; the first that names an option takes it */
    void (*verbatim)(FILE *f); /* a command whose options live elsewhere prints its help (generate) */
    int (*run)(int argc, char **argv); /* NULL: a mode its command's run reaches (bench --crowd) */
} vks_cli_command;

/* The commands, in `vkskin --help` order (main.c). */
extern const vks_cli_command *const vks_cli_commands[];
extern const size_t vks_cli_command_count;

/* Each word of argv as the parser took it: an option with its value (group: its index), or an
 * operand (group -1). Validate keeps its command line and the options that make its poses. */
typedef void (*vks_cli_observer)(void *user, int group, char **words, int count);

enum { VKS_CLI_GO_ON = -1 };

/* Reads argv[1..argc) against cmd's groups, group g storing into targets[g]; the words that
 * are not options (and "-") are moved to argv[1..*operands], in order. -h or --help prints the
 * help on stdout. Returns VKS_CLI_GO_ON, VKS_EXIT_OK after --help, or VKS_EXIT_USAGE after one
 * line on stderr: an unknown option, a missing or refused value. */
int vks_cli_parse(const vks_cli_command *cmd, void *const *targets, int argc, char **argv, int *operands,
                  vks_cli_observer seen, void *user);

/* Whether argv holds the word mode: a command whose mode has a table of its own (bench --crowd)
 * picks the table before parsing. */
int vks_cli_mode(int argc, char **argv, const char *mode);

/* The stores for the tables. */
int vks_cli_store_flag(void *field, const vks_cli_option *o, const char *value);   /* int = 1 */
int vks_cli_store_int(void *field, const vks_cli_option *o, const char *value);    /* int = o->lo */
int vks_cli_store_string(void *field, const vks_cli_option *o, const char *value); /* const char * */
int vks_cli_store_u32(void *field, const vks_cli_option *o, const char *value);    /* lo..hi */
int vks_cli_store_u64(void *field, const vks_cli_option *o, const char *value);    /* lo..hi */
/* A repeatable option: appended to a vks_cli_list (its items hold argc). */
typedef struct vks_cli_list {
    const char **items;
    uint32_t count, most; /* most: how many the command takes (0: no bound) */
} vks_cli_list;
int vks_cli_store_list(void *field, const vks_cli_option *o, const char *value);

/* ---- help and references (cli_help.c) ---- */

/* `vkskin COMMAND --help`: usage, prose, every option by group. */
void vks_cli_help(FILE *f, const vks_cli_command *cmd);
/* vkskin help [COMMAND | --man | --markdown | --check]; argv[0] is "help". */
int vks_cli_help_command(int argc, char **argv);
/* The top-level usage (main.c). */
void vks_cli_usage(FILE *f);

/* The references (cli_reference.c), and what they share with --help (cli_help.c). */
void vks_cli_man(FILE *f);
void vks_cli_markdown(FILE *f);
void vks__cli_formats(FILE *f, const char *lead);
/* An option's text as the references and --help print it: "{clip formats}" becomes the
 * registry's clip files (vks_clip_format_list), so no format list is typed in a table. Returns
 * text itself when it has no such word, else buf (cap bytes). */
const char *vks__cli_text(const char *text, char *buf, size_t cap);
/* Whether an earlier group of cmd takes o's name: then o never runs there and is not shown. */
int vks__cli_shadowed(const vks_cli_command *cmd, int g, const vks_cli_option *o);

#endif
