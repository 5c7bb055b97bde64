/* vkskin generate: procedural skinned characters and the standard dataset set. The code is
 * shared with the vkskin-gen program and lives in the generator library (tools/gen), whose
 * own parser and usage text the references print as they are. */
#include "character_cli.h"
#include "cli.h"

static void generate_help(FILE *f)
{
    vks_gen_cli_usage("vkskin generate", f);
}

const vks_cli_command vks_cli_cmd_generate = {
    .name = "generate",
    .summary = "write procedural skinned characters (test and bench data)",
    .verbatim = generate_help,
    .run = vks_cmd_generate,
};

int vks_cmd_generate(int argc, char **argv)
{
    return vks_gen_cli("vkskin generate", argc, argv);
}
