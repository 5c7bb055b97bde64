/* check_png FILE W H: exit 0 when FILE is a valid PNG of W x H pixels that is not empty (some
 * pixel differs from the top-left one, the background of a contact sheet); 1 otherwise.
 * Used by test_render_cli.sh on what vkskin render wrote. */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 4)
        return fprintf(stderr, "usage: check_png FILE W H\n"), 2;
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, argv[1]))
        return fprintf(stderr, "check_png: %s: %s\n", argv[1], img.message), 1;
    unsigned w = img.width, h = img.height;
    img.format = PNG_FORMAT_RGBA;
    unsigned char *px = malloc(PNG_IMAGE_SIZE(img));
    if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL))
        return fprintf(stderr, "check_png: %s: %s\n", argv[1], img.message), 1;
    unsigned long drawn = 0;
    for (size_t p = 0; p < (size_t)w * h; p++)
        drawn += memcmp(px + 4 * p, px, 4) != 0;
    printf("check_png: %s: %ux%u, %lu pixels differ from the background\n", argv[1], w, h, drawn);
    free(px);
    return w == (unsigned)atoi(argv[2]) && h == (unsigned)atoi(argv[3]) && drawn > 0 ? 0 : 1;
}
