/* See calibration_once.h. A small table of devices, each measured at most once: the process
 * rarely sees more than a few kinds of device; past the table's size a context calibrates on
 * its own, as every context did before. */
#include "calibration_once.h"

#include <pthread.h>
#include <string.h>

#define ONCE_DEVICES 16

enum { ONCE_RUNNING = 1, ONCE_DONE };

static struct {
    uint32_t vendor_id, device_id, driver_version, size_class;
    uint8_t uuid[16];
    int state, have;
    vks__launch_shape shape;
} once[ONCE_DEVICES];
static int once_count;
static pthread_mutex_t once_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t once_done = PTHREAD_COND_INITIALIZER;

static int same_device(int i, const vks__cache_key *k)
{
    return once[i].vendor_id == k->vendor_id && once[i].device_id == k->device_id &&
           once[i].driver_version == k->driver_version && once[i].size_class == k->size_class &&
           !memcmp(once[i].uuid, k->uuid, 16);
}

static int find(const vks__cache_key *k)
{
    for (int i = 0; i < once_count; i++)
        if (same_device(i, k))
            return i;
    return -1;
}

int vks__calibration_once_claim(const vks__cache_key *key, vks__launch_shape *shape, int *have)
{
    pthread_mutex_lock(&once_lock);
    int i = find(key);
    if (i < 0) {
        if (once_count < ONCE_DEVICES) {
            i = once_count++;
            once[i].vendor_id = key->vendor_id, once[i].device_id = key->device_id;
            once[i].driver_version = key->driver_version, once[i].size_class = key->size_class;
            memcpy(once[i].uuid, key->uuid, 16);
            once[i].state = ONCE_RUNNING;
        }
        pthread_mutex_unlock(&once_lock);
        return 1; /* the first (or past the table: on its own) */
    }
    while (once[i].state != ONCE_DONE) /* another context is timing the candidates now */
        pthread_cond_wait(&once_done, &once_lock);
    *have = once[i].have;
    if (once[i].have)
        *shape = once[i].shape;
    pthread_mutex_unlock(&once_lock);
    return 0;
}

void vks__calibration_once_done(const vks__cache_key *key, const vks__launch_shape *shape)
{
    pthread_mutex_lock(&once_lock);
    int i = find(key);
    if (i >= 0 && once[i].state == ONCE_RUNNING) {
        once[i].state = ONCE_DONE;
        once[i].have = shape != NULL;
        if (shape)
            once[i].shape = *shape;
        pthread_cond_broadcast(&once_done);
    }
    pthread_mutex_unlock(&once_lock);
}
