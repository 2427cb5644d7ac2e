#!/usr/bin/python3
"""oracle_opencv.py: random cv2.resize cases (OpenCV as installed: Debian python3-opencv 4.6)
written as newline-delimited JSON, one case per line, for the compat checkers.

    /usr/bin/python3 tests/compat/oracle_opencv.py --seed 1 --cases 300 > cases.ndjson

Each line: {"lib":"opencv","interp":"nearest|nearest_exact|linear|cubic|area",
"dtype":"uint8|float32","in":[h,w,c],"out":[out_h,out_w],"fx":number|null,"fy":number|null,
"x":"<base64 input, HWC>","y":"<base64 cv2.resize output, HWC>"}.
fx/fy are null when cv2.resize was called with dsize; otherwise dsize was None and fx/fy are
the scale factors given to OpenCV (the kernels' inv_scale_x/y), out is the size OpenCV chose.
Images are at most 64x64 so that a few hundred cases take seconds.
"""
import argparse
import base64
import json
import random
import sys

import numpy as np
import cv2

INTERPS = {
    "nearest": cv2.INTER_NEAREST,
    "nearest_exact": cv2.INTER_NEAREST_EXACT,
    "linear": cv2.INTER_LINEAR,
    "cubic": cv2.INTER_CUBIC,
    "area": cv2.INTER_AREA,
}


def make_image(rng, nrng, h, w, c, dtype):
    kind = rng.choice(["noise", "gradient", "edges", "mixed"])
    if kind == "noise":
        img = nrng.random((h, w, c))
    elif kind == "gradient":
        yy, xx = np.meshgrid(np.linspace(0, 1, h), np.linspace(0, 1, w), indexing="ij")
        a, b = rng.random(), rng.random()
        img = np.stack([(a * yy + (1 - a) * xx + b * k) % 1.0 for k in range(c)], axis=-1)
    elif kind == "edges":
        img = (nrng.random((h, w, c)) > 0.5).astype(np.float64)
        if rng.random() < 0.5:  # blocks rather than single pixels
            bh, bw = rng.randint(1, 8), rng.randint(1, 8)
            img = img[np.arange(h) // bh][:, np.arange(w) // bw][:h, :w]
            img = np.resize(img, (h, w, c))
    else:
        img = nrng.random((h, w, c)) * 0.3 + (nrng.random((h, w, c)) > 0.7) * 0.7
    if dtype == "uint8":
        return np.clip(np.round(img * 255), 0, 255).astype(np.uint8)
    lo, hi = rng.choice([(0.0, 1.0), (0.0, 255.0), (-1.0, 1.0), (-1000.0, 1000.0)])
    return (lo + img * (hi - lo)).astype(np.float32)


def pick_size(rng):
    r = rng.random()
    if r < 0.1:
        return 1
    if r < 0.2:
        return rng.randint(2, 4)
    return rng.randint(1, 64)


def pick_scale(rng):
    r = rng.random()
    if r < 0.25:
        return rng.choice([0.5, 0.25, 2.0, 3.0, 4.0, 1.0 / 3, 0.2, 1.5, 0.75, 1.0])
    if r < 0.6:
        return rng.uniform(0.1, 1.0)
    return rng.uniform(1.0, 4.0)


def make_case(rng, nrng):
    interp = rng.choice(list(INTERPS))
    dtype = rng.choice(["uint8", "float32"])
    c = rng.choice([1, 2, 3, 4])
    for _ in range(100):
        h, w = pick_size(rng), pick_size(rng)
        form = rng.random()
        fx = fy = None
        if form < 0.15:  # exact 2x downscale (INTER_LINEAR becomes INTER_AREA)
            h, w = 2 * rng.randint(1, 32), 2 * rng.randint(1, 32)
            if rng.random() < 0.5:
                dsize = (w // 2, h // 2)
            else:
                dsize, fx, fy = None, 0.5, 0.5
        elif form < 0.55:
            dsize = (pick_size(rng), pick_size(rng))
            if rng.random() < 0.3:  # integer ratios
                k = rng.choice([2, 3, 4])
                if rng.random() < 0.5:
                    dsize = (w * k, h * k)
                else:
                    h, w = h * k, w * k
                    if h > 64 or w > 64:
                        continue
                    dsize = (w // k, h // k)
        else:
            dsize = None
            fx = pick_scale(rng)
            fy = fx if rng.random() < 0.4 else pick_scale(rng)
            ow, oh = round(w * fx), round(h * fy)
            if ow < 1 or oh < 1 or ow > 256 or oh > 256:
                continue
        if dsize is not None and (dsize[0] < 1 or dsize[1] < 1 or dsize[0] > 256 or dsize[1] > 256):
            continue
        if h > 64 or w > 64:
            continue
        break
    else:
        raise RuntimeError("no case")
    x = make_image(rng, nrng, h, w, c, dtype)
    src = x[:, :, 0] if c == 1 else x
    if dsize is not None:
        y = cv2.resize(src, dsize, interpolation=INTERPS[interp])
    else:
        y = cv2.resize(src, None, fx=fx, fy=fy, interpolation=INTERPS[interp])
    y = y.reshape(y.shape[0], y.shape[1], c)
    return {
        "lib": "opencv",
        "interp": interp,
        "dtype": dtype,
        "in": [h, w, c],
        "out": [int(y.shape[0]), int(y.shape[1])],
        "fx": fx,
        "fy": fy,
        "x": base64.b64encode(np.ascontiguousarray(x).tobytes()).decode("ascii"),
        "y": base64.b64encode(np.ascontiguousarray(y).tobytes()).decode("ascii"),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--interp", choices=list(INTERPS), help="only this interpolation")
    ap.add_argument("--dtype", choices=["uint8", "float32"], help="only this type")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    rng = random.Random(args.seed)
    nrng = np.random.default_rng(args.seed)
    out = sys.stdout
    n = 0
    while n < args.cases:
        case = make_case(rng, nrng)
        if args.interp and case["interp"] != args.interp:
            continue
        if args.dtype and case["dtype"] != args.dtype:
            continue
        out.write(json.dumps(case) + "\n")
        n += 1


if __name__ == "__main__":
    main()
