/* A queue family's capabilities in vulkaninfo's words, shared by the devices' text and JSON
 * (devices.h). */
#ifndef VKS_DEVICES_DEVICE_WORDS_H
#define VKS_DEVICES_DEVICE_WORDS_H

#include <stddef.h>
#include <stdint.h>

struct cJSON;

/* The words of flags (VKS_QUEUE_*), lower case and space separated ("graphics compute
 * transfer"), into buf; each also into array where not NULL. A bit newer than the list is shown
 * as hex, not dropped. */
void vks__queue_flag_words(uint32_t flags, char *buf, size_t cap, struct cJSON *array);

#endif
