/* vkskin generate: procedural skinned characters and the standard dataset set. The code is
 * shared with the vkskin-gen program and lives in the generator library (tools/gen). */
#include "character_cli.h"
#include "cli.h"

int vks_cmd_generate(int argc, char **argv)
{
    return vks_gen_cli("vkskin generate", argc, argv);
}
