/* Joining a folder and a name, for the outputs and inputs the library names inside a folder
 * (a report folder's files, golden files, side files beside an input). */
#ifndef VKS_CORE_PATH_JOIN_H
#define VKS_CORE_PATH_JOIN_H

/* "dir/name", malloc'd; NULL without memory. */
char *vks__path_join(const char *dir, const char *name);

#endif
