"""Matrix arithmetic shared by the rigid-part goldens (gltf_, rw_ and nif_rigid_golden.py):
plain Python, so the goldens compose transforms independently of vkskin."""
import math


def quat_matrix(q):
    """The 3x3 rotation of a unit quaternion (x, y, z, w)."""
    x, y, z, w = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]


def mul(a, b):
    """a * b of two 4x4 matrices (rows of lists)."""
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]


def set_distance(part, want):
    """The largest distance from a point of either set to the nearest of the other: the
    builder may order a group's vertices by first use, so parts compare as sets."""
    return max(max(min(math.dist(p, q) for q in want) for p in part),
               max(min(math.dist(p, q) for p in part) for q in want))
