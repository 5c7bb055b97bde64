/* vkskin-gen: the procedural character generator as its own program (the same code as
 * `vkskin generate`; see tools/gen/character_cli.c). */
#include "character_cli.h"

int main(int argc, char **argv)
{
    return vks_gen_cli("vkskin-gen", argc, argv);
}
