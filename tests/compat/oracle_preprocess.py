"""The Python pipelines that the preprocessing helpers mirror, run on the caller's images.

Used by tests/js/preprocess.test.mjs: reads one JSON list of jobs on stdin and writes one JSON
list of results (base64 bytes, or float lists) on stdout. Run with /usr/bin/python3 (Debian's
python3-pil, python3-opencv, python3-torch, python3-numpy). torchvision and ultralytics are
not installed: their published algorithms are written out below (the rules each test pins).

Jobs (x: base64 of an H x W x C uint8 image):
  {"op": "gray", "x", "h", "w", "c"}               PIL convert('L')
  {"op": "resize_crop", "x", "h", "w", "c", "size", "crop": [th, tw]}
      torchvision transforms.Resize(size) then CenterCrop(crop) on a PIL image (BILINEAR)
  {"op": "resize_crop_tensor", "x": float list, "c", "h", "w", "size", "crop"}
      the same on a float tensor (C, H, W): F.interpolate bilinear, antialias, align_corners False
  {"op": "letterbox", "x", "h", "w", "c", "width", "height", "fill"}
      Ultralytics LetterBox(new_shape, auto=False, scaleup=True, center=True)
  {"op": "warp", "x", "h", "w", "c", "m": [6], "width", "height", "flag": "nearest|linear"}
      cv2.warpAffine(x, m, (width, height), flags, BORDER_CONSTANT 0)
"""
import base64
import json
import sys

import numpy as np


def img_of(j):
    a = np.frombuffer(base64.b64decode(j["x"]), dtype=np.uint8)
    return a.reshape(j["h"], j["w"], j["c"]).copy()


def b64(a):
    return base64.b64encode(np.ascontiguousarray(a, dtype=np.uint8).tobytes()).decode()


def tv_resized_size(h, w, size):
    # torchvision _compute_resized_output_size for an int size: the shorter side becomes
    # size, the longer int(size * long / short)
    short, long = (w, h) if w <= h else (h, w)
    new_short, new_long = size, int(size * long / short)
    return (new_long, new_short) if w <= h else (new_short, new_long)  # (h, w)


def tv_center_crop_box(h, w, th, tw):
    # torchvision center_crop: pad with 0 where the crop is larger, then
    # top = int(round((h - th) / 2.0)), left = int(round((w - tw) / 2.0))
    pad = [(tw - w) // 2 if tw > w else 0, (th - h) // 2 if th > h else 0,
           (tw - w + 1) // 2 if tw > w else 0, (th - h + 1) // 2 if th > h else 0]
    return pad


def center_crop(a, th, tw):
    h, w = a.shape[:2]
    l, t, r, b = tv_center_crop_box(h, w, th, tw)
    if any((l, t, r, b)):
        a = np.pad(a, ((t, b), (l, r)) + ((0, 0),) * (a.ndim - 2))
        h, w = a.shape[:2]
    top, left = int(round((h - th) / 2.0)), int(round((w - tw) / 2.0))
    return a[top:top + th, left:left + tw]


def main():
    jobs = json.load(sys.stdin)
    out = []
    for j in jobs:
        op = j["op"]
        if op == "gray":
            from PIL import Image
            a = img_of(j)
            im = Image.fromarray(a, {3: "RGB", 4: "RGBA"}[j["c"]])
            out.append(b64(np.asarray(im.convert("L"))))
        elif op == "resize_crop":
            from PIL import Image
            a = img_of(j)
            im = Image.fromarray(a, {3: "RGB", 4: "RGBA"}[j["c"]])
            oh, ow = tv_resized_size(j["h"], j["w"], j["size"])
            im = im.resize((ow, oh), Image.BILINEAR)
            out.append(b64(center_crop(np.asarray(im), *j["crop"])))
        elif op == "resize_crop_tensor":
            import torch
            x = torch.tensor(j["x"], dtype=torch.float32).reshape(j["c"], j["h"], j["w"])
            oh, ow = tv_resized_size(j["h"], j["w"], j["size"])
            y = torch.nn.functional.interpolate(x[None], size=(oh, ow), mode="bilinear", align_corners=False, antialias=True)[0]
            y = center_crop(y.permute(1, 2, 0).numpy(), *j["crop"])
            out.append(np.ascontiguousarray(y.transpose(2, 0, 1)).reshape(-1).tolist())
        elif op == "letterbox":
            import cv2
            a = img_of(j)
            h, w = a.shape[:2]
            new_h, new_w = j["height"], j["width"]
            r = min(new_h / h, new_w / w)
            new_unpad = int(round(w * r)), int(round(h * r))
            dw, dh = (new_w - new_unpad[0]) / 2, (new_h - new_unpad[1]) / 2
            if (w, h) != new_unpad:
                a = cv2.resize(a, new_unpad, interpolation=cv2.INTER_LINEAR)
            top, bottom = int(round(dh - 0.1)), int(round(dh + 0.1))
            left, right = int(round(dw - 0.1)), int(round(dw + 0.1))
            fill = (j["fill"],) * 3 + ((255,) if j["c"] == 4 else ())
            a = cv2.copyMakeBorder(a, top, bottom, left, right, cv2.BORDER_CONSTANT, value=fill)
            out.append({"y": b64(a), "scale": r, "left": left, "top": top})
        elif op == "warp":
            import cv2
            a = img_of(j)
            m = np.array(j["m"], dtype=np.float64).reshape(2, 3)
            flag = {"nearest": cv2.INTER_NEAREST, "linear": cv2.INTER_LINEAR}[j["flag"]]
            y = cv2.warpAffine(a, m, (j["width"], j["height"]), flags=flag, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
            out.append(b64(y))
        else:
            raise ValueError(op)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
