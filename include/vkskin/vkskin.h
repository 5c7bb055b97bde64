/* The folder form of vkskin.h, for hosts that include every library as <name/name.h>:
 * #include <vkskin/vkskin.h> is #include <vkskin.h>, the whole public API (see there). */
#ifndef VKSKIN_VKSKIN_FOLDER_H
#define VKSKIN_VKSKIN_FOLDER_H

#include "../vkskin.h"

#endif
