#!/usr/bin/env python3
"""silhouette_on_feet.py PICTURE.png: whether a four-legged character stands on its feet in the
picture (seen from the side and a little above, as vkskin render and the Godot player look): its
silhouette (silhouette_iou.py's rule) is less than 1.3 times as tall as wide (the Fox on its
feet: 0.96). Standing on its tail, as a camera that took the long axis for up drew the Fox, it
is 2.7 times as tall as wide. Prints the silhouette's width and height in pixels; exit 1 when
it stands taller."""
import sys
from silhouette_iou import mask

w, h, m = mask(sys.argv[1])
xs = [i % w for i, v in enumerate(m) if v]
ys = [i // w for i, v in enumerate(m) if v]
if not xs:
    sys.exit(f'{sys.argv[1]}: no silhouette')
width, height = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
print(f'{width}x{height}')
sys.exit(0 if height < 1.3 * width else 1)
