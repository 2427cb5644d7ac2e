"""Native peers of bench/matrix.mjs: OpenCV, PyTorch and Pillow on one thread each.

Run by bench/matrix.mjs as `/usr/bin/python3 bench/native_peers.py` (Debian's packages:
python3-opencv, python3-torch, python3-pil). It reads one JSON command per line on stdin and
answers one JSON line on stdout:

  {"cmd": "hello"}                      -> {"libs": {name: version}, "missing": {name: why}}
  {"cmd": "prepare", "id": k, "job": J} -> {"id": k, "peers": [{"lib", "label", "job"}], "skipped": [...]}
  {"cmd": "time", "id": k, "peer": i}   -> {"id": k, "ms": t}  (one call, timed here)
  {"cmd": "quit"}

A job J describes the work as matrix.mjs does (op, type, layout, in/out shapes, mode,
antialias, padding). Each peer is a callable prepared once with its inputs; "time" runs it
once and returns the milliseconds it took (time.perf_counter around the call alone, so the
pipe's latency is not counted). "job" says whether the peer computes the same job or a
similar one (another filter or rounding), as bench/run.mjs labels its peers.
"""
import json
import sys
import time

LIBS = {}
MISSING = {}

def optional(name, load, package):
    """The module load() returns, or None with the reason in MISSING (and its version in LIBS)."""
    try:
        module, version = load()
        LIBS[name] = version
        return module
    except Exception as e:  # an import error, or a broken install
        MISSING[name] = f"{type(e).__name__}: {e} (apt-get install {package})"
        return None


def _numpy():
    import numpy
    return numpy, numpy.__version__


def _opencv():
    import cv2 as m
    m.setNumThreads(1)
    return m, m.__version__


def _torch():
    import torch as m
    m.set_num_threads(1)
    return m, m.__version__


def _pillow():
    import PIL
    from PIL import Image as m
    return m, PIL.__version__


np = optional("numpy", _numpy, "python3-numpy")
cv2 = optional("opencv", _opencv, "python3-opencv")
torch = optional("torch", _torch, "python3-torch")
F = torch.nn.functional if torch is not None else None
Image = optional("pillow", _pillow, "python3-pil")

NP_TYPES = {"float32": "float32", "float64": "float64", "float16": "float16", "uint8": "uint8",
            "int8": "int8", "uint16": "uint16", "int32": "int32"}


def data(shape, type_):
    """Inputs of X's type; bfloat16 (which numpy lacks) as float32, converted by torch."""
    rng = np.random.default_rng(1)
    if type_ in ("uint8", "int8", "uint16", "int32"):
        info = np.iinfo(NP_TYPES[type_])
        return rng.integers(max(info.min, -1000), min(info.max, 1000) + 1, size=shape).astype(NP_TYPES[type_])
    return rng.random(shape, dtype=np.float64).astype(NP_TYPES.get(type_, "float32"))


def rotated_grid(h, w, degrees=30.0):
    a = np.deg2rad(degrees)
    ys, xs = np.meshgrid((2 * np.arange(h) + 1 - h) / h, (2 * np.arange(w) + 1 - w) / w, indexing="ij")
    g = np.stack([np.cos(a) * xs - np.sin(a) * ys, np.sin(a) * xs + np.cos(a) * ys], axis=-1)
    return g.astype(np.float32)[None]


def peers_for(job):
    """[(lib, label, same-or-similar, callable)] and [(lib, why)] skipped."""
    out, skipped = [], []
    op, t = job["op"], job["type"]
    if op == "resize":
        x_shape, y_shape, layout = job["in"], job["out"], job["layout"]
        mode, aa = job["mode"], job.get("antialias", False)
        x = data(x_shape, t)
        if layout == "NCHW":
            n, c, h, w = x_shape
            oh, ow = y_shape[2], y_shape[3]
        else:
            n, h, w, c = x_shape
            oh, ow = y_shape[1], y_shape[2]
        # OpenCV: cv2.resize on HxW planes (NCHW) or HxWxC images (NHWC, C <= 4).
        if cv2 is not None and mode in ("linear", "cubic", "nearest") and t in ("float32", "float64", "uint8"):
            flag = {"linear": cv2.INTER_LINEAR, "cubic": cv2.INTER_CUBIC, "nearest": cv2.INTER_NEAREST}[mode]
            same = "same" if (not aa and t != "uint8" and mode != "nearest") else "similar"
            if aa:
                flag, label = cv2.INTER_AREA, "cv2.resize INTER_AREA"
            else:
                label = f"cv2.resize {['INTER_NEAREST', 'INTER_LINEAR', 'INTER_CUBIC'][['nearest', 'linear', 'cubic'].index(mode)]}"
            if layout == "NCHW":
                planes = [np.ascontiguousarray(x[0, i]) for i in range(c)]
                fn = (lambda planes=planes, flag=flag: [cv2.resize(p, (ow, oh), interpolation=flag) for p in planes])
                out.append(("opencv", label + " per plane", same, fn))
            else:
                img = np.ascontiguousarray(x[0])
                out.append(("opencv", label + f" HWC x{c}", same, lambda img=img, flag=flag: cv2.resize(img, (ow, oh), interpolation=flag)))
        elif cv2 is None:
            skipped.append(("opencv", MISSING["opencv"]))
        # PyTorch: F.interpolate, half_pixel (align_corners=False), channels_last for NHWC.
        if torch is not None and mode in ("linear", "cubic", "nearest"):
            tmode = {"linear": "bilinear", "cubic": "bicubic", "nearest": "nearest"}[mode]
            xt = torch.from_numpy(x if layout == "NCHW" else np.ascontiguousarray(x.transpose(0, 3, 1, 2)))
            if t == "bfloat16":
                xt = xt.to(torch.bfloat16)
            if layout == "NHWC":
                xt = xt.contiguous(memory_format=torch.channels_last)
            kw = {} if mode == "nearest" else {"align_corners": False}
            if aa:
                kw["antialias"] = True
            same = "same" if t in ("float32", "float64") and mode != "nearest" and (not aa or mode == "linear") else "similar"
            try:
                F.interpolate(xt[:, :, :4, :4], size=(2, 2), mode=tmode, **kw)  # supported at all?
                out.append(("torch", f"F.interpolate {tmode}{' antialias' if aa else ''}", same,
                            lambda xt=xt, tmode=tmode, kw=kw: F.interpolate(xt, size=(oh, ow), mode=tmode, **kw)))
            except Exception as e:
                skipped.append(("torch", f"{type(e).__name__}: {str(e)[:80]}"))
        elif torch is None:
            skipped.append(("torch", MISSING["torch"]))
        # Pillow: uint8 RGB/RGBA images (its filters always antialias when reducing).
        if Image is not None and t == "uint8" and layout == "NHWC" and c in (3, 4) and mode in ("linear", "cubic"):
            img = Image.fromarray(np.ascontiguousarray(x[0]), "RGB" if c == 3 else "RGBA")
            flt = Image.BILINEAR if mode == "linear" else Image.BICUBIC
            out.append(("pillow", f"Image.resize {'BILINEAR' if mode == 'linear' else 'BICUBIC'}",
                        "similar", lambda img=img, flt=flt: img.resize((ow, oh), flt)))
        elif Image is None:
            skipped.append(("pillow", MISSING["pillow"]))
    elif op == "compat":
        # compat 'pillow' / 'opencv': the library's own call on the same image (HxWxC).
        img = data(job["in"], t)[0]
        if job.get("opaque"):
            img[:, :, 3] = 255
        oh, ow = job["out"][1], job["out"][2]
        if job["lib"] == "pillow":
            if Image is None:
                skipped.append(("pillow", MISSING["pillow"]))
            else:
                flt = {"linear": Image.BILINEAR, "cubic": Image.BICUBIC, "lanczos": Image.LANCZOS, "box": Image.BOX,
                       "hamming": Image.HAMMING, "nearest": Image.NEAREST}[job["mode"]]
                c = img.shape[2]
                pil = Image.fromarray(img[:, :, 0] if c == 1 else img, {1: "F" if t == "float32" else "L", 3: "RGB", 4: "RGBA"}[c])
                out.append(("pillow", f"Image.resize {job['mode']}", "same", lambda pil=pil, flt=flt: pil.resize((ow, oh), flt)))
        elif cv2 is None:
            skipped.append(("opencv", MISSING["opencv"]))
        else:
            flag = {"linear": cv2.INTER_LINEAR, "cubic": cv2.INTER_CUBIC, "area": cv2.INTER_AREA, "nearest": cv2.INTER_NEAREST,
                    "nearest_exact": cv2.INTER_NEAREST_EXACT}[job["mode"]]
            out.append(("opencv", f"cv2.resize {job['mode']}", "same", lambda img=img, flag=flag: cv2.resize(img, (ow, oh), interpolation=flag)))
    elif op == "grid":
        x = data(job["x"], t)
        g = rotated_grid(job["grid"][1], job["grid"][2])
        if torch is not None:
            tmode = {"linear": "bilinear", "cubic": "bicubic", "nearest": "nearest"}[job["mode"]]
            xt, gt = torch.from_numpy(x), torch.from_numpy(g)
            out.append(("torch", f"F.grid_sample {tmode} {job['padding']}", "same",
                        lambda xt=xt, gt=gt, tmode=tmode: F.grid_sample(xt, gt, mode=tmode, padding_mode=job["padding"], align_corners=False)))
        else:
            skipped.append(("torch", MISSING["torch"]))
        if cv2 is not None and job["mode"] in ("linear", "cubic", "nearest") and job["padding"] in ("zeros", "border"):
            n, c, h, w = job["x"]
            mx = ((g[0, :, :, 0] + 1) * w - 1) / 2
            my = ((g[0, :, :, 1] + 1) * h - 1) / 2
            flag = {"linear": cv2.INTER_LINEAR, "cubic": cv2.INTER_CUBIC, "nearest": cv2.INTER_NEAREST}[job["mode"]]
            border = cv2.BORDER_CONSTANT if job["padding"] == "zeros" else cv2.BORDER_REPLICATE
            planes = [np.ascontiguousarray(x[0, i]) for i in range(c)]
            out.append(("opencv", "cv2.remap per plane", "similar",
                        lambda planes=planes, mx=mx.astype(np.float32), my=my.astype(np.float32): [cv2.remap(p, mx, my, flag, borderMode=border) for p in planes]))
        elif cv2 is None:
            skipped.append(("opencv", MISSING["opencv"]))
    return out, skipped


def main():
    prepared = {}
    for line in sys.stdin:
        msg = json.loads(line)
        cmd = msg["cmd"]
        if cmd == "hello":
            reply = {"libs": LIBS, "missing": MISSING}
        elif cmd == "prepare":
            if np is None:
                reply = {"id": msg["id"], "peers": [], "skipped": [["numpy", MISSING["numpy"]]]}
            else:
                try:
                    peers, skipped = peers_for(msg["job"])
                except Exception as e:
                    peers, skipped = [], [("native_peers.py", f"{type(e).__name__}: {str(e)[:100]}")]
                ok = []
                for lib, label, same, fn in peers:
                    try:
                        fn()  # warm-up, and a check that it runs
                        ok.append((lib, label, same, fn))
                    except Exception as e:
                        skipped.append((lib, f"{label}: {type(e).__name__}: {str(e)[:80]}"))
                prepared[msg["id"]] = [fn for _, _, _, fn in ok]
                reply = {"id": msg["id"], "peers": [{"lib": l, "label": lb, "job": s} for l, lb, s, _ in ok],
                         "skipped": [list(s) for s in skipped]}
        elif cmd == "time":
            fn = prepared[msg["id"]][msg["peer"]]
            t0 = time.perf_counter()
            fn()
            reply = {"id": msg["id"], "ms": (time.perf_counter() - t0) * 1000.0}
        elif cmd == "quit":
            break
        else:
            reply = {"error": f"unknown command {cmd}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
