// image.js: the image helpers of onnx-sampling-wasm: pixels -> tensor, tensor -> pixels, and
// resizeImage, an alpha-correct image resize on top of sampler.resize.
//
// api.js calls installImageHelpers(Sampler, h) with the API's own checkers
// (api/validate.js, api/tensors.js), so the helpers validate arguments the same way (TypeError for
// a wrong kind, RangeError for a bad value, each message naming the argument). Pixel data is always 8-bit RGBA, row-major, as ImageData.
// In browsers ImageBitmap, <canvas>, OffscreenCanvas, a loaded <img> and <video> are read
// by drawing them into a scratch canvas; in Node only ImageData-like objects are accepted.

import { OSW_DRAWABLES } from './drawables.js';

export function installImageHelpers(Sampler, h) {
  'use strict';
  const { checkTensor, checkOptions, checkEnum, checkNumber, checkInt, describe } = h;

  const LAYOUTS = { nchw: 'nchw', nhwc: 'nhwc' };
  const PIXEL_TYPES = { float32: 'float32', uint8: 'uint8' };
  const OUT_TYPES = ['float32', 'float64', 'uint8'];
  const RESIZE_MODES = { nearest: 'nearest', linear: 'linear', cubic: 'cubic' };

  const opt = (o, name, dflt) => (o[name] === undefined ? dflt : o[name]);

  function checkBool(v, what) {
    if (typeof v !== 'boolean') throw new TypeError(`${what}: expected true or false, got ${describe(v)}`);
    return v;
  }

  function checkFiniteNumber(v, what) {
    checkNumber(v, what);
    if (!Number.isFinite(v)) throw new RangeError(`${what}: expected a finite number, got ${v}`);
    return v;
  }

  function checkSize(v, what) {
    const n = checkInt(v, what);
    if (n < 1) throw new RangeError(`${what}: expected a positive integer, got ${n}`);
    return n;
  }

  // ------------------------------------------------------------------ reading pixels

  const hasCtor = (name) => typeof globalThis[name] === 'function';
  const isA = (v, name) => hasCtor(name) && v instanceof globalThis[name];

  function isPixelArray(d) {
    return d instanceof Uint8ClampedArray || d instanceof Uint8Array;
  }

  // A 2-D context on a fresh scratch canvas of w x h (OffscreenCanvas where it exists).
  function scratchContext(w, hgt, what) {
    let canvas;
    if (hasCtor('OffscreenCanvas')) canvas = new OffscreenCanvas(w, hgt);
    else if (typeof document !== 'undefined' && document.createElement) {
      canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = hgt;
    } else {
      throw new TypeError(`${what}: reading this kind of image needs a canvas (OffscreenCanvas or document), which this environment lacks`);
    }
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) throw new TypeError(`${what}: could not get a 2-D canvas context to read the image`);
    return ctx;
  }

  // Drawable browser sources and how to get their pixel size (bindings/drawables.js).
  const DRAWABLES = OSW_DRAWABLES;

  // Any accepted image -> { width, height, data (RGBA bytes), colorSpace }.
  function readPixels(image, what) {
    if (image !== null && typeof image === 'object' && !ArrayBuffer.isView(image)) {
      for (const [name, size, notReady] of DRAWABLES) {
        if (!isA(image, name)) continue;
        const [w, hgt] = size(image);
        if (!(w > 0 && hgt > 0)) throw new RangeError(`${what}: ${notReady}`);
        const ctx = scratchContext(w, hgt, what);
        ctx.drawImage(image, 0, 0, w, hgt);
        const d = ctx.getImageData(0, 0, w, hgt);
        return { width: w, height: hgt, data: d.data, colorSpace: d.colorSpace || 'srgb' };
      }
      if ('data' in image || 'width' in image) {
        const width = checkSize(image.width, `${what}.width`);
        const height = checkSize(image.height, `${what}.height`);
        const data = image.data;
        if (!isPixelArray(data))
          throw new TypeError(`${what}.data: expected RGBA or RGB bytes in a Uint8ClampedArray or Uint8Array, got ${describe(data)}`);
        // RGB (3 bytes a pixel, as sharp's raw output and most decoders give) or RGBA
        const n = width * height;
        if (data.length !== n * 4 && data.length !== n * 3)
          throw new RangeError(`${what}: ${width} x ${height} pixels need ${n * 4} bytes (RGBA) or ${n * 3} (RGB) but data has ${data.length}`);
        const cs = typeof image.colorSpace === 'string' ? image.colorSpace : 'srgb';
        return { width, height, data, colorSpace: cs, rgb: data.length !== n * 4 };
      }
    }
    throw new TypeError(`${what}: expected ImageData or an ImageData-like { width, height, data }` +
      `${typeof document !== 'undefined' || hasCtor('OffscreenCanvas') ? ', an ImageBitmap, a canvas, an OffscreenCanvas or a loaded <img>' : ''}, got ${describe(image)}`);
  }

  // ImageData where it exists (browsers, workers), else a plain object with its fields.
  function makeImageData(data, width, height, colorSpace) {
    if (hasCtor('ImageData')) {
      try {
        return colorSpace && colorSpace !== 'srgb'
          ? new ImageData(data, width, height, { colorSpace })
          : new ImageData(data, width, height);
      } catch (e) {
        if (colorSpace && colorSpace !== 'srgb') return new ImageData(data, width, height);
        throw e;
      }
    }
    return { width, height, data, colorSpace: colorSpace || 'srgb' };
  }

  // ------------------------------------------------------------------ normalisation

  // mean / std / scale: tensor = (pixel * scale - mean[c]) / std[c] for each channel c.
  // Lists have one value per channel; with 4 channels 3 values leave alpha as pixel * scale.
  function checkPerChannel(v, what, channels, dflt, positive) {
    if (v === undefined) return new Array(channels).fill(dflt);
    if (!(Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView))))
      throw new TypeError(`${what}: expected an array of ${channels} numbers (one per channel), got ${describe(v)}`);
    if (!(v.length === channels || (channels === 4 && v.length === 3)))
      throw new RangeError(`${what}: expected ${channels === 4 ? '3 or 4 values' : channels === 1 ? '1 value' : `${channels} values`} (one per channel), got ${v.length}`);
    const out = new Array(channels).fill(dflt);
    for (let i = 0; i < v.length; i++) {
      const x = checkFiniteNumber(v[i], `${what}[${i}]`);
      if (positive && x === 0) throw new RangeError(`${what}[${i}]: must not be 0`);
      out[i] = x;
    }
    return out;
  }

  function normalisation(o, channels) {
    const scale = checkFiniteNumber(opt(o, 'scale', 1), 'scale');
    if (scale === 0) throw new RangeError('scale: must not be 0');
    const mean = checkPerChannel(o.mean, 'mean', channels, 0, false);
    const std = checkPerChannel(o.std, 'std', channels, 1, true);
    const identity = scale === 1 && mean.every((m) => m === 0) && std.every((s) => s === 1);
    return { scale, mean, std, identity };
  }

  function checkChannels(v) {
    const c = checkInt(v, 'channels');
    if (c !== 1 && c !== 3 && c !== 4) throw new RangeError(`channels: expected 1 (gray), 3 (RGB, or BGR with order 'bgr') or 4 (RGBA), got ${c}`);
    return c;
  }

  // ------------------------------------------------------------------ sRGB transfer

  let srgbToLinearLut = null; // 256 entries: 8-bit sRGB -> linear light on a 0..255 scale
  let linearToSrgbLut = null; // LIN_STEPS + 2 entries over linear 0..1 -> sRGB on 0..255
  const LIN_STEPS = 4096;

  function srgbToLinear() {
    if (!srgbToLinearLut) {
      srgbToLinearLut = new Float32Array(256);
      for (let v = 0; v < 256; v++) {
        const s = v / 255;
        srgbToLinearLut[v] = 255 * (s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4));
      }
    }
    return srgbToLinearLut;
  }

  function linearToSrgb() {
    if (!linearToSrgbLut) {
      linearToSrgbLut = new Float64Array(LIN_STEPS + 2);
      for (let i = 0; i <= LIN_STEPS + 1; i++) {
        const l = Math.min(i / LIN_STEPS, 1);
        linearToSrgbLut[i] = 255 * (l <= 0.0031308 ? 12.92 * l : 1.055 * Math.pow(l, 1 / 2.4) - 0.055);
      }
    }
    return linearToSrgbLut;
  }

  // ------------------------------------------------------------------ pixels <-> tensor

  // RGB pixels as RGBA (alpha 255); RGBA as they are.
  function rgbaOf(px) {
    if (!px.rgb) return px.data;
    const n = px.width * px.height, d = px.data, out = new Uint8ClampedArray(4 * n);
    for (let i = 0, j = 0; i < 4 * n; i += 4, j += 3) { out[i] = d[j]; out[i + 1] = d[j + 1]; out[i + 2] = d[j + 2]; out[i + 3] = 255; }
    return out;
  }

  // Gray (channels 1): Pillow's convert('L') (ITU-R 601-2 luma, its 16-bit integer
  // weights, rounded), which torchvision's Grayscale applies to PIL images. BGR: R and B
  // swapped. Both from RGBA or RGB pixels, as bytes.
  function grayOrBgr(px, channels) {
    const n = px.width * px.height, d = px.data, sc = px.rgb ? 3 : 4;
    if (channels === 1) {
      const out = new Uint8Array(n);
      for (let i = 0, j = 0; i < n; i++, j += sc) out[i] = (d[j] * 19595 + d[j + 1] * 38470 + d[j + 2] * 7471 + 0x8000) >>> 16;
      return { ...px, data: out, gray: true };
    }
    const out = new Uint8Array(d.length);
    for (let j = 0; j < d.length; j += sc) {
      out[j] = d[j + 2]; out[j + 1] = d[j + 1]; out[j + 2] = d[j];
      if (sc === 4) out[j + 3] = d[j + 3];
    }
    return { ...px, data: out };
  }

  function pixelsToTensor(px, layout, type, channels, norm, premultiply, order) {
    const n = px.width * px.height;
    if (channels === 1 || order === 'bgr') px = grayOrBgr(px, channels);
    if (px.gray) {
      const { scale, mean, std } = norm;
      const dims = layout === 'nchw' ? [1, 1, px.height, px.width] : [1, px.height, px.width, 1];
      if (type === 'uint8') return { type, dims, data: px.data };
      const out = new Float32Array(n);
      for (let i = 0; i < n; i++) out[i] = (px.data[i] * scale - mean[0]) / std[0];
      return { type, dims, data: out };
    }
    const { width: W, height: H } = px;
    const src = rgbaOf(px);
    const dims = layout === 'nchw' ? [1, channels, H, W] : [1, H, W, channels];
    // Element (pixel i, channel c) goes to i * cs + c * ps.
    const cs = layout === 'nchw' ? 1 : channels;
    const ps = layout === 'nchw' ? n : 1;
    if (type === 'uint8') {
      const out = new Uint8Array(n * channels);
      if (channels === 4 && layout === 'nhwc' && !premultiply) {
        out.set(src);
      } else {
        for (let i = 0, j = 0; i < n; i++, j += 4) {
          const k = i * cs;
          if (premultiply) {
            const a = src[j + 3];
            out[k] = Math.round(src[j] * a / 255);
            out[k + ps] = Math.round(src[j + 1] * a / 255);
            out[k + 2 * ps] = Math.round(src[j + 2] * a / 255);
          } else {
            out[k] = src[j];
            out[k + ps] = src[j + 1];
            out[k + 2 * ps] = src[j + 2];
          }
          if (channels === 4) out[k + 3 * ps] = src[j + 3];
        }
      }
      return { type: 'uint8', dims, data: out };
    }
    const out = new Float32Array(n * channels);
    const { scale, mean, std } = norm;
    if (!premultiply) {
      // One lookup table per channel holds the exact formula for the 256 byte values.
      const luts = [];
      for (let c = 0; c < channels; c++) {
        const lut = new Float32Array(256);
        for (let v = 0; v < 256; v++) lut[v] = (v * scale - mean[c]) / std[c];
        luts.push(lut);
      }
      const [l0, l1, l2, l3] = luts;
      if (layout === 'nchw') {
        const p1 = n, p2 = 2 * n, p3 = 3 * n;
        if (channels === 4) {
          for (let i = 0, j = 0; i < n; i++, j += 4) {
            out[i] = l0[src[j]]; out[p1 + i] = l1[src[j + 1]]; out[p2 + i] = l2[src[j + 2]]; out[p3 + i] = l3[src[j + 3]];
          }
        } else {
          for (let i = 0, j = 0; i < n; i++, j += 4) {
            out[i] = l0[src[j]]; out[p1 + i] = l1[src[j + 1]]; out[p2 + i] = l2[src[j + 2]];
          }
        }
      } else if (channels === 4) {
        for (let j = 0; j < 4 * n; j += 4) {
          out[j] = l0[src[j]]; out[j + 1] = l1[src[j + 1]]; out[j + 2] = l2[src[j + 2]]; out[j + 3] = l3[src[j + 3]];
        }
      } else {
        for (let i = 0, j = 0, k = 0; i < n; i++, j += 4, k += 3) {
          out[k] = l0[src[j]]; out[k + 1] = l1[src[j + 1]]; out[k + 2] = l2[src[j + 2]];
        }
      }
    } else {
      for (let i = 0, j = 0; i < n; i++, j += 4) {
        const k = i * cs;
        const a = src[j + 3];
        const f = a / 255;
        out[k] = (src[j] * f * scale - mean[0]) / std[0];
        out[k + ps] = (src[j + 1] * f * scale - mean[1]) / std[1];
        out[k + 2 * ps] = (src[j + 2] * f * scale - mean[2]) / std[2];
        if (channels === 4) out[k + 3 * ps] = (a * scale - mean[3]) / std[3];
      }
    }
    return { type: 'float32', dims, data: out };
  }

  // A checked tensor -> RGBA bytes. Undoes the normalisation, then (premultiply) divides by
  // alpha; Uint8ClampedArray does the clamping and the rounding (half to even, NaN -> 0).
  function tensorToPixels(t, layout, norm, premultiply) {
    const d = t.dims;
    let C, H, W;
    if (d.length === 4 && d[0] !== 1)
      throw new RangeError(`tensor.dims[0]: expected a batch of 1 image, got ${d[0]} (pass one image at a time)`);
    if (d.length === 4 || d.length === 3) {
      const o = d.length - 3;
      if (layout === 'nchw') { C = d[o]; H = d[o + 1]; W = d[o + 2]; } else { H = d[o]; W = d[o + 1]; C = d[o + 2]; }
    } else {
      throw new RangeError(`tensor: expected dims [1, C, H, W] or [C, H, W] (nhwc: [1, H, W, C] or [H, W, C]), got rank ${d.length}`);
    }
    if (C !== 1 && C !== 3 && C !== 4)
      throw new RangeError(`tensor: expected 1, 3 or 4 channels for layout '${layout}', got ${C} (dims [${d.join(', ')}])`);
    if (H < 1 || W < 1) throw new RangeError(`tensor: an image needs a height and width of at least 1, got ${H} x ${W}`);
    if (premultiply && C !== 4) throw new RangeError(`premultiply: needs 4 channels (RGBA), the tensor has ${C}`);
    const n = H * W;
    const src = t.wasm ? t.wasm.data : t.data;  // a wasm tensor: a fresh view
    const out = new Uint8ClampedArray(4 * n);
    const cs = layout === 'nchw' ? 1 : C;
    const ps = layout === 'nchw' ? n : 1;
    const { scale, mean, std } = norm;
    // pixel = (x * std + mean) / scale = x * k[c] + b[c]
    const k = [], b = [];
    for (let c = 0; c < C; c++) { k.push(std[c] / scale); b.push(mean[c] / scale); }
    if (C === 4 && layout === 'nhwc' && !premultiply && norm.identity) {
      out.set(src); // converts each element as a Uint8ClampedArray store does
    } else if (C === 1) {
      for (let i = 0, j = 0; i < n; i++, j += 4) {
        const v = src[i] * k[0] + b[0];
        out[j] = v; out[j + 1] = v; out[j + 2] = v; out[j + 3] = 255;
      }
    } else if (!premultiply) {
      const [k0, k1, k2] = k, [b0, b1, b2] = b;
      const k3 = C === 4 ? k[3] : 0, b3 = C === 4 ? b[3] : 255;
      for (let i = 0, j = 0; i < n; i++, j += 4) {
        const q = i * cs;
        out[j] = src[q] * k0 + b0;
        out[j + 1] = src[q + ps] * k1 + b1;
        out[j + 2] = src[q + 2 * ps] * k2 + b2;
        out[j + 3] = C === 4 ? src[q + 3 * ps] * k3 + b3 : 255;
      }
    } else {
      const [k0, k1, k2, k3] = k, [b0, b1, b2, b3] = b;
      for (let i = 0, j = 0; i < n; i++, j += 4) {
        const q = i * cs;
        const a = src[q + 3 * ps] * k3 + b3;
        out[j + 3] = a;
        if (a > 0) {
          const f = 255 / Math.min(a, 255);
          out[j] = (src[q] * k0 + b0) * f;
          out[j + 1] = (src[q + ps] * k1 + b1) * f;
          out[j + 2] = (src[q + 2 * ps] * k2 + b2) * f;
        }
      }
    }
    return { width: W, height: H, data: out };
  }

  // ------------------------------------------------------------------ the methods

  const TO_TENSOR_OPTIONS = ['layout', 'type', 'mean', 'std', 'scale', 'channels', 'premultiply', 'order'];
  const ORDERS = { rgb: 'rgb', bgr: 'bgr' };
  const TO_IMAGE_OPTIONS = ['layout', 'mean', 'std', 'scale', 'premultiply'];
  const RESIZE_IMAGE_OPTIONS = ['width', 'height', 'scale', 'mode', 'antialias', 'premultiply', 'linearLight',
    'coordinateTransformationMode', 'cubicCoeffA', 'excludeOutside', 'nearestMode', 'compat'];
  // resizeImage's compat: the library whose resize of an RGBA image it reproduces, bit for
  // bit (sampler.resize's compat modes, on the bytes), and its call.
  const IMAGE_COMPATS = { pillow: 'PIL.Image.resize', opencv: 'cv2.resize' };
  const OWN_RESIZE_OPTIONS = ['antialias', 'premultiply', 'linearLight', 'coordinateTransformationMode', 'cubicCoeffA',
    'excludeOutside', 'nearestMode'];

  /**
   * image (or an array of images of one size: a batch, N = their count) -> tensor. layout
   * 'nchw' (default) or 'nhwc'; type 'float32' (default for nchw) or 'uint8' (default for
   * nhwc); channels 3 (default: RGB, or BGR with order 'bgr'), 4 (RGBA / BGRA) or 1 (gray,
   * as Pillow's convert('L')); float32 values are (pixel * scale - mean[c]) / std[c], pixel
   * in 0..255; premultiply: multiply the colours by alpha / 255 first.
   */
  Sampler.prototype.imageToTensor = function imageToTensor(image, options) {
    this._live();
    const o = checkOptions(options, 'imageToTensor', TO_TENSOR_OPTIONS);
    const layout = checkEnum(opt(o, 'layout', 'nchw'), 'layout', LAYOUTS);
    const type = checkEnum(opt(o, 'type', layout === 'nhwc' ? 'uint8' : 'float32'), 'type', PIXEL_TYPES);
    const channels = checkChannels(opt(o, 'channels', 3));
    const order = checkEnum(opt(o, 'order', 'rgb'), 'order', ORDERS);
    const premultiply = checkBool(opt(o, 'premultiply', false), 'premultiply');
    if (premultiply && channels === 1) throw new RangeError('premultiply: needs colour channels (channels 3 or 4), got channels 1 (gray)');
    const norm = normalisation(o, channels);
    if (type === 'uint8' && !norm.identity)
      throw new RangeError("type: 'uint8' tensors hold the pixel bytes as they are; mean, std and scale need type 'float32'");
    if (!Array.isArray(image)) return pixelsToTensor(readPixels(image, 'image'), layout, type, channels, norm, premultiply, order);
    // A batch: every image the same size, stacked along N.
    if (image.length === 0) throw new RangeError('image: a batch needs at least one image');
    const parts = image.map((im, i) => pixelsToTensor(readPixels(im, `image[${i}]`), layout, type, channels, norm, premultiply, order));
    const d = parts[0].dims;
    parts.forEach((p, i) => {
      if (p.dims.join() !== d.join())
        throw new RangeError(`image[${i}]: a batch needs images of one size; image[0] gives dims [${d.join(', ')}], image[${i}] [${p.dims.join(', ')}]`);
    });
    const out = new parts[0].data.constructor(parts[0].data.length * parts.length);
    parts.forEach((p, i) => out.set(p.data, i * p.data.length));
    return { type, dims: [parts.length, ...d.slice(1)], data: out };
  };

  /**
   * tensor ((1,) C, H, W or (1,) H, W, C with C = 1, 3 or 4; float32, float64 or uint8) ->
   * ImageData (a { width, height, data, colorSpace } object where ImageData does not exist).
   * Inverts imageToTensor's mean/std/scale (and premultiply), then rounds and clamps.
   */
  Sampler.prototype.tensorToImageData = function tensorToImageData(tensor, options) {
    this._live();
    const o = checkOptions(options, 'tensorToImageData', TO_IMAGE_OPTIONS);
    const t = checkTensor(tensor, 'tensor');
    if (!OUT_TYPES.includes(t.type))
      throw new TypeError(`tensor.type: expected ${OUT_TYPES.map((s) => `'${s}'`).join(', ')} for an image, got '${t.type}'`);
    const layout = checkEnum(opt(o, 'layout', 'nchw'), 'layout', LAYOUTS);
    const premultiply = checkBool(opt(o, 'premultiply', false), 'premultiply');
    const rank = t.dims.length;
    const C = rank >= 3 ? (layout === 'nchw' ? t.dims[rank - 3] : t.dims[rank - 1]) : 0;
    const norm = normalisation(o, C === 1 || C === 3 || C === 4 ? C : 4);
    const px = tensorToPixels(t, layout, norm, premultiply);
    return makeImageData(px.data, px.width, px.height, 'srgb');
  };

  /**
   * Resizes an image with sampler.resize on its height and width: premultiplied alpha
   * (default), optionally in linear light, antialiased (default) when shrinking.
   * width / height: the output size (give one to keep the aspect ratio), or scale: a factor
   * or [y, x] factors, with ONNX's scales semantics (output floor(length * scale)).
   */
  Sampler.prototype.resizeImage = function resizeImage(image, options) {
    this._live();
    if (options === undefined || options === null)
      throw new TypeError('resizeImage: options { width, height } are required');
    const o = checkOptions(options, 'resizeImage', RESIZE_IMAGE_OPTIONS);
    // compat: the RGBA bytes resized by sampler.resize under that compat mode (Pillow
    // premultiplies in 8 bits as Image.resize does RGBA; OpenCV resizes 4 independent
    // channels, as cv2.resize does); mode: the library's filters, its default when absent.
    const compat = o.compat === undefined ? null : checkEnum(o.compat, 'compat', IMAGE_COMPATS);
    if (compat) for (const k of OWN_RESIZE_OPTIONS)
      if (o[k] !== undefined) throw new RangeError(`${k}: compat '${o.compat}' reproduces ${compat}, which has no such parameter`);
    const mode = compat ? o.mode : checkEnum(opt(o, 'mode', 'linear'), 'mode', RESIZE_MODES);
    const antialias = checkBool(opt(o, 'antialias', true), 'antialias');
    const premultiply = checkBool(opt(o, 'premultiply', true), 'premultiply');
    const linearLight = checkBool(opt(o, 'linearLight', false), 'linearLight');
    const hasSize = o.width !== undefined || o.height !== undefined;
    if (hasSize && o.scale !== undefined)
      throw new RangeError('resizeImage: give width / height or scale, not both');
    if (!hasSize && o.scale === undefined)
      throw new TypeError('resizeImage: width, height or scale is required');
    let w = o.width === undefined ? 0 : checkSize(o.width, 'width');
    let hgt = o.height === undefined ? 0 : checkSize(o.height, 'height');
    let scales = null;
    if (o.scale !== undefined) {
      // one factor, or [y, x]; as in resize(), the output length is floor(length * scale)
      const list = typeof o.scale === 'number' ? [o.scale, o.scale] : o.scale;
      if (!Array.isArray(list) || list.length !== 2)
        throw new TypeError(`scale: expected a number or [scaleY, scaleX], got ${describe(o.scale)}`);
      scales = list.map((v, i) => {
        const f = checkFiniteNumber(v, typeof o.scale === 'number' ? 'scale' : `scale[${i}]`);
        if (!(f > 0)) throw new RangeError(`${typeof o.scale === 'number' ? 'scale' : `scale[${i}]`}: must be positive, got ${f}`);
        return compat ? f : Math.fround(f);
      });
    }
    const px = readPixels(image, 'image');
    const W = px.width, H = px.height, n = W * H;
    if (scales && !compat) {  // (a compat mode takes the scales as they are: cv2's fx / fy)
      hgt = Math.floor(H * scales[0]);
      w = Math.floor(W * scales[1]);
      if (hgt < 1 || w < 1) throw new RangeError(`scale: the ${W} x ${H} image would become ${w} x ${hgt}`);
    }
    if (!scales) {
      if (!w) w = Math.max(1, Math.round(W * hgt / H));
      if (!hgt) hgt = Math.max(1, Math.round(H * w / W));
    }
    if (compat) {
      // (RGB stays 3 channels: OpenCV's arithmetic depends on the channel count)
      const y = this.resize({ type: 'uint8', dims: [1, H, W, px.rgb ? 3 : 4], data: px.data },
        { [scales ? 'scales' : 'sizes']: scales || [hgt, w], axes: [1, 2], mode, compat: o.compat });
      if (!(y.dims[1] && y.dims[2])) throw new RangeError(`scale: the ${W} x ${H} image would become ${y.dims[2]} x ${y.dims[1]}`);
      return imageOut(new Uint8ClampedArray(y.data.buffer, y.data.byteOffset, y.data.length), y.dims[2], y.dims[1], px);
    }
    const src = rgbaOf(px);
    // The image is resized as float32 RGBA in wasm memory: 16 bytes a pixel, in and out.
    // Checked here, before anything is allocated, with the sizes in the message.
    for (const [what, pw, ph] of [['input', W, H], ['output', w, hgt]]) {
      const bytes = 16 * pw * ph;
      if (!(bytes <= this._maxBytes))
        throw new RangeError(`resizeImage: the ${pw} x ${ph} ${what} needs ${bytes} bytes of wasm memory (float32 RGBA), more than the limit of ${this._maxBytes} bytes (createSampler({ maxBytes }))`);
    }

    // Is there any alpha < 255? If not, premultiplying changes nothing and is skipped.
    let opaque = true;
    for (let j = 3; j < 4 * n; j += 4) if (src[j] !== 255) { opaque = false; break; }
    const premul = premultiply && !opaque && mode !== 'nearest';

    const toLin = linearLight ? srgbToLinear() : null;
    const toSrgb = linearLight ? linearToSrgb() : null;

    // RGBA bytes -> float32 (1, H, W, 4), on a 0..255 scale. (Interleaved RGBA keeps both
    // conversion loops sequential, and the core resizes it faster than planar.)
    const fill = (x) => {
      if (!toLin && !premul) { x.set(src); return; }
      for (let j = 0; j < 4 * n; j += 4) {
        let r = src[j], g = src[j + 1], b = src[j + 2];
        const a = src[j + 3];
        if (toLin) { r = toLin[r]; g = toLin[g]; b = toLin[b]; }
        if (premul) { const f = a / 255; r *= f; g *= f; b *= f; }
        x[j] = r; x[j + 1] = g; x[j + 2] = b; x[j + 3] = a;
      }
    };

    // float32 RGBA -> RGBA bytes: un-premultiply, back to sRGB, round and clamp (the
    // Uint8ClampedArray stores round half to even and clamp to 0..255).
    const S = LIN_STEPS / 255;
    const drain = (y, out) => {
      if (!premul && !toSrgb) { out.set(y); return; }
      for (let j = 0; j < out.length; j += 4) {
        let r = y[j], g = y[j + 1], b = y[j + 2];
        const a = y[j + 3];
        if (premul) {
          if (!(a >= 0.5)) continue; // rounds to alpha 0: left transparent black
          const f = 255 / (a > 255 ? 255 : a);
          r *= f; g *= f; b *= f;
        }
        if (toSrgb) {
          // linear 0..255 -> sRGB 0..255, interpolating in the table
          let t = r * S; t = t > 0 ? (t < LIN_STEPS ? t : LIN_STEPS) : 0;
          let q = t | 0; r = toSrgb[q] + (toSrgb[q + 1] - toSrgb[q]) * (t - q);
          t = g * S; t = t > 0 ? (t < LIN_STEPS ? t : LIN_STEPS) : 0;
          q = t | 0; g = toSrgb[q] + (toSrgb[q + 1] - toSrgb[q]) * (t - q);
          t = b * S; t = t > 0 ? (t < LIN_STEPS ? t : LIN_STEPS) : 0;
          q = t | 0; b = toSrgb[q] + (toSrgb[q + 1] - toSrgb[q]) * (t - q);
        }
        out[j] = r; out[j + 1] = g; out[j + 2] = b; out[j + 3] = a;
      }
    };

    const resizeOptions = scales ? { scales, axes: [1, 2], mode, antialias } : { sizes: [hgt, w], axes: [1, 2], mode, antialias };
    for (const k of ['coordinateTransformationMode', 'cubicCoeffA', 'excludeOutside', 'nearestMode'])
      if (o[k] !== undefined) resizeOptions[k] = o[k];
    let out;
    if (typeof this.tensor === 'function' && typeof this.resizeInto === 'function') {
      // Zero-copy: both tensors live in wasm memory; the loops read and write there. The
      // views are taken after the allocations (memory growth detaches older views).
      let xt = null, yt = null;
      try {
        xt = this.tensor('float32', [1, H, W, 4]);
        yt = this.tensor('float32', [1, hgt, w, 4]); // from scales: floor(length * scale), as the core
        out = new Uint8ClampedArray(4 * w * hgt);
        fill(xt.data);
        this.resizeInto(xt, yt, resizeOptions);
        drain(yt.data, out);
      } finally {
        if (xt) xt.dispose();
        if (yt) yt.dispose();
      }
    } else {
      out = new Uint8ClampedArray(4 * w * hgt);
      const x = new Float32Array(4 * n);
      fill(x);
      drain(this.resize({ type: 'float32', dims: [1, H, W, 4], data: x }, resizeOptions).data, out);
    }
    return imageOut(out, w, hgt, px);
  };

  // The preprocessing helpers (bindings/compat.js, with the compat modes they use: in
  // browsers after sampler.loadCompat(); the worker API and Node need no call). Each
  // returns what the Python pipeline it mirrors gives.
  const PRE = { readPixels, imageOut, rgbaOf, checkSize, checkInt, checkTensor, describe };
  const helper = (name, options) => function (input, a, b) {
    this._live();
    const args = [this, input, ...(name === 'warpImage' ? [a] : []), checkOptions(name === 'warpImage' ? b : a, name, options), PRE];
    return this._compat(name)[name](...args);
  };
  Sampler.prototype.resizeCrop = helper('resizeCrop', ['size', 'crop', 'mode']);
  Sampler.prototype.letterbox = helper('letterbox', ['width', 'height', 'fill', 'mode']);
  Sampler.prototype.warpImage = helper('warpImage', ['width', 'height', 'mode', 'paddingMode', 'inverse']);

  // An image like the one given: RGB pixels as { width, height, data (3 bytes a pixel),
  // colorSpace }, RGBA as ImageData (where it exists). data: RGBA, or RGB when \`like\` was.
  function imageOut(data, w, hgt, like) {
    if (!like.rgb) return makeImageData(data, w, hgt, like.colorSpace);
    if (data.length === 4 * w * hgt) {
      const rgb = new Uint8ClampedArray(3 * w * hgt);
      for (let i = 0, j = 0; j < rgb.length; i += 4, j += 3) { rgb[j] = data[i]; rgb[j + 1] = data[i + 1]; rgb[j + 2] = data[i + 2]; }
      data = rgb;
    }
    return { width: w, height: hgt, data, colorSpace: like.colorSpace };
  }
}
