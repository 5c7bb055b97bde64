#ifndef VKSKIN_CONSUMER_COMMON_H
#define VKSKIN_CONSUMER_COMMON_H
/* Checks versions and reads, validates and deforms the models argv[1..]; 0 when all pass.
 * expected_version: what the package (CMake config, pkg-config) says; NULL or "": unchecked. */
int consumer_run(int argc, char **argv, const char *expected_version);
#endif
