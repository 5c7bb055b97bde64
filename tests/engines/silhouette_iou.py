#!/usr/bin/env python3
"""silhouette_iou.py A.png B.png: intersection over union of the two pictures' silhouettes, printed
with 4 decimals. A pixel belongs to the silhouette when it differs from the picture's own corner
pixel (its background) by more than 6 in the sum of its channels, so lighting and colour do not
count, only where the model covers the picture. 8-bit RGB or RGBA PNGs of the same size, not
interlaced (what vkskin render and Godot write)."""
import struct, sys, zlib


def read_png(path):
    b = open(path, 'rb').read()
    if b[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit(f'{path}: not a PNG')
    i, idat = 8, b''
    while i + 8 <= len(b):
        n, t = struct.unpack('>I4s', b[i:i + 8])
        body = b[i + 8:i + 8 + n]
        if t == b'IHDR':
            w, h, depth, color, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or color not in (2, 6) or interlace:
                sys.exit(f'{path}: {depth}-bit colour type {color}: want 8-bit RGB(A), not interlaced')
            ch = 3 if color == 2 else 4
        elif t == b'IDAT':
            idat += body
        i += 12 + n
    raw, stride = zlib.decompress(idat), w * ch
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, src = raw[y * (stride + 1)], raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
        cur = bytearray(stride)
        for x in range(stride):
            a = cur[x - ch] if x >= ch else 0
            up, c = prev[x], prev[x - ch] if x >= ch else 0
            if f == 0: p = 0
            elif f == 1: p = a
            elif f == 2: p = up
            elif f == 3: p = (a + up) >> 1
            else:
                pa, pb, pc = abs(up - c), abs(a - c), abs(a + up - 2 * c)
                p = a if pa <= pb and pa <= pc else up if pb <= pc else c
            cur[x] = (src[x] + p) & 255
        rows.append(cur)
        prev = cur
    return w, h, ch, rows


def mask(path):
    w, h, ch, rows = read_png(path)
    bg = rows[0][:3]
    return w, h, [sum(abs(r[x * ch + k] - bg[k]) for k in range(3)) > 6 for r in rows for x in range(w)]


if __name__ == '__main__':
    wa, ha, a = mask(sys.argv[1])
    wb, hb, b = mask(sys.argv[2])
    if (wa, ha) != (wb, hb):
        sys.exit(f'sizes differ: {wa}x{ha} and {wb}x{hb}')
    union = sum(1 for x, y in zip(a, b) if x or y)
    inter = sum(1 for x, y in zip(a, b) if x and y)
    print('%.4f' % (inter / union if union else 0.0))
