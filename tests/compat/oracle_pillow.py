#!/usr/bin/python3
"""oracle_pillow.py: random PIL.Image.resize cases as newline-delimited JSON (issue 18).

Run with the system Python (Debian python3-pil 9.4, numpy):

    /usr/bin/python3 tests/compat/oracle_pillow.py --seed 1 --cases 300 > cases.ndjson

Each line is one case: one image, one target size, one filter (the filters take turns, so
any 6 consecutive cases cover all six):

    {"lib": "pillow", "filter": "nearest|box|bilinear|hamming|bicubic|lanczos",
     "dtype": "uint8|float32", "in": [h, w, c], "out": [out_h, out_w],
     "premultiply": bool, "x": "<base64 of the input, HWC>", "y": "<base64 of Pillow's output, HWC>"}

uint8 images are Pillow modes L (c 1), LA (2, premultiply true), RGB (3), RGBA (4, premultiply
true), and the non-premultiplied La (2) and RGBX (4) (premultiply false: channels
independent). For NEAREST, Pillow never premultiplies, whatever the flag says. float32
images are c planes of mode "F", each resized alone (Pillow has no multi-channel float mode).
Images are at most 64 x 64; sizes go up, down, mixed, by integer and non-integer ratios,
keep one axis, or are 1. Alphas mix 0, 1, 2, 254, 255, low values and noise.
"""
import argparse
import base64
import json
import sys

import numpy as np
from PIL import Image

FILTERS = [
    ("nearest", Image.Resampling.NEAREST),
    ("box", Image.Resampling.BOX),
    ("bilinear", Image.Resampling.BILINEAR),
    ("hamming", Image.Resampling.HAMMING),
    ("bicubic", Image.Resampling.BICUBIC),
    ("lanczos", Image.Resampling.LANCZOS),
]
# (Pillow mode, channels, premultiply)
U8_MODES = [("L", 1, False), ("LA", 2, True), ("RGB", 3, False), ("RGBA", 4, True),
            ("La", 2, False), ("RGBX", 4, False)]
U8_MODE_WEIGHTS = [0.2, 0.2, 0.2, 0.25, 0.05, 0.1]
MAX_SIDE = 64


def pick_side(rng):
    r = rng.random()
    if r < 0.08:
        return 1
    if r < 0.16:
        return int(rng.integers(2, 5))
    return int(rng.integers(1, MAX_SIDE + 1))


def pick_out(rng, n):
    """A target length for an axis of length n."""
    kind = rng.choice(["same", "one", "up_int", "down_int", "up", "down", "any"],
                      p=[0.12, 0.08, 0.12, 0.12, 0.2, 0.2, 0.16])
    if kind == "same":
        return n
    if kind == "one":
        return 1
    if kind == "up_int":
        f = int(rng.choice([2, 3, 4]))
        return min(MAX_SIDE, n * f) if n * f <= MAX_SIDE else int(rng.integers(n, MAX_SIDE + 1))
    if kind == "down_int":
        f = int(rng.choice([2, 3, 4, 5, 8]))
        return max(1, n // f)
    if kind == "up":
        return int(min(MAX_SIDE, max(1, round(n * rng.uniform(1.05, 4.0)))))
    if kind == "down":
        return int(max(1, round(n / rng.uniform(1.05, 9.0))))
    return int(rng.integers(1, MAX_SIDE + 1))


def plane(rng, h, w, lo, hi):
    """One channel in [lo, hi] (float64): noise, smooth gradient or hard edges."""
    kind = rng.choice(["noise", "gradient", "edges", "flat"], p=[0.35, 0.3, 0.3, 0.05])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    if kind == "noise":
        return rng.uniform(lo, hi, (h, w))
    if kind == "gradient":
        gx, gy = rng.uniform(-1, 1, 2)
        v = gx * xx / max(w - 1, 1) + gy * yy / max(h - 1, 1)
        v = (v - v.min()) / (np.ptp(v) or 1.0)
        v = v + rng.normal(0, 0.01, (h, w))
        return lo + np.clip(v, 0, 1) * (hi - lo)
    if kind == "edges":
        a, b = rng.choice([lo, hi]), rng.uniform(lo, hi)
        pattern = rng.choice(["checker", "stripes", "step"])
        if pattern == "checker":
            s = int(rng.integers(1, 5))
            m = ((xx // s + yy // s) % 2) == 0
        elif pattern == "stripes":
            s = int(rng.integers(1, 4))
            m = (xx // s) % 2 == 0 if rng.random() < 0.5 else (yy // s) % 2 == 0
        else:
            m = xx * rng.uniform(-1, 1) + yy * rng.uniform(-1, 1) > rng.uniform(-w, w) / 2
        return np.where(m, a, b)
    return np.full((h, w), rng.uniform(lo, hi))


def alpha_plane(rng, h, w):
    kind = rng.choice(["special", "low", "noise", "plane"], p=[0.4, 0.25, 0.15, 0.2])
    if kind == "special":
        return rng.choice([0, 1, 2, 3, 254, 255, 128], (h, w),
                          p=[0.2, 0.15, 0.15, 0.05, 0.15, 0.2, 0.1]).astype(np.float64)
    if kind == "low":
        return rng.integers(0, 17, (h, w)).astype(np.float64)
    if kind == "noise":
        return rng.uniform(0, 255, (h, w))
    return plane(rng, h, w, 0, 255)


def b64(a):
    return base64.b64encode(np.ascontiguousarray(a).tobytes()).decode("ascii")


def case_u8(rng, fname, resample, h, w, oh, ow):
    mode, c, premul = U8_MODES[rng.choice(len(U8_MODES), p=U8_MODE_WEIGHTS)]
    chans = [plane(rng, h, w, 0, 255) for _ in range(c)]
    if c in (2, 4):
        chans[-1] = alpha_plane(rng, h, w)
    x = np.clip(np.rint(np.stack(chans, axis=-1)), 0, 255).astype(np.uint8)
    if mode == "L":
        im = Image.frombytes(mode, (w, h), x[:, :, 0].tobytes())
    else:
        im = Image.frombytes(mode, (w, h), x.tobytes())
    out = im.resize((ow, oh), resample)
    assert out.mode == mode and out.size == (ow, oh)
    y = np.frombuffer(out.tobytes(), dtype=np.uint8).reshape(oh, ow, c)
    return {"dtype": "uint8", "c": c, "premultiply": premul, "x": x, "y": y}


def case_f32(rng, fname, resample, h, w, oh, ow):
    c = int(rng.choice([1, 1, 2, 3]))
    scale = float(rng.choice([1.0, 255.0, 1e4, 1e-3]))
    chans = []
    for _ in range(c):
        p = plane(rng, h, w, -scale, scale).astype(np.float32)
        chans.append(p)
    x = np.stack(chans, axis=-1).astype(np.float32)
    outs = []
    for i in range(c):
        im = Image.fromarray(np.ascontiguousarray(x[:, :, i]), "F")
        r = im.resize((ow, oh), resample)
        outs.append(np.asarray(r, dtype=np.float32))
    y = np.stack(outs, axis=-1).astype(np.float32)
    return {"dtype": "float32", "c": c, "premultiply": False, "x": x, "y": y}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--float-share", type=float, default=0.2,
                    help="fraction of float32 cases (default 0.2)")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    out = sys.stdout
    for i in range(args.cases):
        fname, resample = FILTERS[i % len(FILTERS)]
        h, w = pick_side(rng), pick_side(rng)
        oh, ow = pick_out(rng, h), pick_out(rng, w)
        if rng.random() < args.float_share:
            c = case_f32(rng, fname, resample, h, w, oh, ow)
        else:
            c = case_u8(rng, fname, resample, h, w, oh, ow)
        rec = {"lib": "pillow", "filter": fname, "dtype": c["dtype"], "in": [h, w, c["c"]],
               "out": [oh, ow], "premultiply": c["premultiply"], "x": b64(c["x"]),
               "y": b64(c["y"])}
        out.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    main()
