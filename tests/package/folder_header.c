/* A host that includes the folder form (<vkskin/vkskin.h>) gets the whole API, the same as
 * <vkskin.h> (package_folder_header; package_install's pkg-config consumer includes it from an
 * installed tree). */
#include <vkskin/vkskin.h>

int main(void)
{
    vks_skin *s = vks_skin_create(NULL); /* skin.h, through vkskin.h */
    vks_skin_free(s);
    return vks_version() && s ? 0 : 1;
}
