/* The progress of vks_validate_run's state (validate_state.h), counted by every route. */
#include "check/validate_state.h"

void vks__validate_progress(vrun *r, uint32_t poses)
{
    r->done += poses;
    if (r->opt->progress)
        r->opt->progress(r->opt->progress_user, r->done, r->total);
}
