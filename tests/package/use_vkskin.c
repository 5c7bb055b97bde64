/* The pkg-config consumer: cc $(pkg-config --cflags vkskin) use_vkskin.c consumer_common.c
 *                            $(pkg-config [--static] --libs vkskin)
 * EXPECTED_VERSION comes from pkg-config --modversion vkskin. */
#include "consumer_common.h"

#include <vkskin/vkskin.h> /* the folder form is installed too */

#ifndef EXPECTED_VERSION
#define EXPECTED_VERSION ""
#endif

int main(int argc, char **argv)
{
    if (!vks_version())
        return 1;
    return consumer_run(argc, argv, EXPECTED_VERSION);
}
