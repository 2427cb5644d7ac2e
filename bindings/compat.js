// compat.js: the JavaScript half of the compat modes 'pillow' and 'opencv' (resize by
// PIL.Image.resize's or cv2.resize's rules, bit for bit, in osw-compat.wasm).
//
// Only programs that use those modes need it, so browsers fetch it with the wasm: it is
// dist/compat.mjs (entries/compat-browser.js), which sampler.loadCompat() imports from
// browser.mjs. The other entries import it. Either way, oswCompatCode(find, findSync) gives the entry's object { find, findSync, instantiate,
// instantiateSync, resize }, where find(options, shared) / findSync(shared) are the entry's
// ways to get the compiled osw-compat.wasm, or osw-compat-mt.wasm for the threaded build's
// shared memory (findSync: null where the host cannot read files at once).
//
// osw-compat.wasm is a side module (CMakeLists.txt): each sampler instantiates it into its
// own osw.wasm instance's memory, so images are resized where they are.

// What to do when osw-compat.wasm cannot be found (loader.js's oswLoadError).
export const OSW_COMPAT_FIX = 'The compat modes \'pillow\' and \'opencv\' need it: if a bundler did not copy it, copy ' +
  'node_modules/onnx-sampling-wasm/dist/osw-compat.wasm next to your bundle, or say where it is with ' +
  'sampler.loadCompat({ wasmUrl }) (or createSampler({ loadCompat: { wasmUrl } })), or pass its bytes with { wasmBinary }';
// The same as the loader's fixes (loader.js, OSW_FIX) take them.
export const OSW_COMPAT_WASM = { file: 'osw-compat.wasm', how: 'sampler.loadCompat', missing: OSW_COMPAT_FIX };

export function oswCompatCode(find, findSync) {
  'use strict';
  const STACK = 65536;  // the side module's stack (its kernels allocate their scratch)

  // The size and alignment of the side module's static data, and its table's size, from its
  // dylink.0 section.
  function dataInfo(module) {
    const sec = WebAssembly.Module.customSections(module, 'dylink.0')[0];
    if (!sec) throw new Error(`onnx-sampling-wasm: osw-compat.wasm is not the side module this version builds (no dylink.0 section). ${OSW_COMPAT_FIX}`);
    const b = new Uint8Array(sec);
    let p = 0;
    const leb = () => {
      let v = 0, f = 1, c;
      do { c = b[p++]; v += (c & 127) * f; f *= 128; } while (c & 128);
      return v;
    };
    while (p < b.length) {
      const type = b[p++], len = leb(), end = p + len;
      if (type === 1) return { size: leb(), align: 2 ** leb(), table: leb() };  // WASM_DYLINK_MEM_INFO
      p = end;
    }
    return { size: 0, align: 1, table: 0 };
  }

  // The side module's imports, from the sampler's module instance M: its memory, malloc and
  // free; static data and a stack allocated there (for as long as M lives); sin and cos
  // (Lanczos' weights) from Math, the same fdlibm functions as Emscripten's libc.
  function link(module, M) {
    const memory = M.wasmMemory || Object.values(M.asm).find((v) => v instanceof WebAssembly.Memory);
    const info = dataInfo(module);
    const data = M._malloc(info.size + info.align) >>> 0, stack = M._malloc(STACK) >>> 0;
    if (!data || !stack) throw new RangeError('out of memory: cannot allocate the memory of osw-compat.wasm');
    const base = Math.ceil(data / info.align) * info.align;
    // zeroed: osw-compat-mt.wasm's start function copies the static data in unless a flag
    // there says that another thread did
    M.HEAPU8.fill(0, base, base + info.size);
    const i32 = (value, mutable) => new WebAssembly.Global({ value: 'i32', mutable }, value);
    const env = {
      memory, malloc: M._malloc, free: M._free, sin: Math.sin, cos: Math.cos,  // (M._malloc: the export itself once called)
      __memory_base: i32(base, false),
      __stack_pointer: i32((stack + STACK) & ~15, true),
      // its own table for the functions it calls indirectly, if any (none at -O2)
      __table_base: i32(0, false),
      __indirect_function_table: new WebAssembly.Table({ initial: info.table, element: 'anyfunc' }),
    };
    for (const i of WebAssembly.Module.imports(module))
      if (i.module !== 'env' || !(i.name in env))
        throw new Error(`onnx-sampling-wasm: osw-compat.wasm imports ${i.module}.${i.name}, which this version does not give (a file of another version?). ${OSW_COMPAT_FIX}`);
    return { env };
  }
  // A module of the other memory kind does not link: said so (the threaded build's shared
  // memory takes osw-compat-mt.wasm, the others osw-compat.wasm).
  // (shared: whether the sampler's memory is, as api/sampler-core.js's _shared() says)
  const linkError = (e, shared) => {
    if (!(e instanceof WebAssembly.LinkError)) return e;
    return new Error(`onnx-sampling-wasm: the compat module does not link to this sampler (${e.message}): a sampler with ${shared ? 'threads takes osw-compat-mt.wasm' : 'one thread takes osw-compat.wasm'}. ${OSW_COMPAT_FIX}`);
  };
  const ready = (instance) => {
    const e = instance.exports;
    if (e.__wasm_apply_data_relocs) e.__wasm_apply_data_relocs();
    e.__wasm_call_ctors();  // the C++ runtime's constructors
    return e;
  };

  // The libraries (by api/opsets.js's COMPATS code): the filters each has and their codes in
  // src/imaging/imaging.h (PillowFilter, CvInterp), and its default filter. nearest, linear
  // and cubic name the library's own filter of that kind.
  const LIBS = {
    3: {
      name: 'pillow', call: 'PIL.Image.resize', lib: 0, dflt: 'cubic',  // Pillow's default: BICUBIC
      filters: { nearest: 0, box: 1, linear: 2, hamming: 3, cubic: 4, lanczos: 5 },
    },
    4: {
      name: 'opencv', call: 'cv2.resize', lib: 1, dflt: 'linear',  // INTER_LINEAR
      filters: { nearest: 0, linear: 1, cubic: 2, area: 3, nearest_exact: 6 },
    },
  };

  // The checks of a compat library's Resize, on api/resize.js's reading of the attributes or
  // options (raw: as given; keys: their names; values: the checked codes; index: each
  // attribute's position): the mode is one of the library's filters (its default when
  // absent), and no attribute but mode and compat is given (the library has no such
  // parameter; its call fixes them all). Returns { lib, filter }.
  function args(V, raw, keys, values, index) {
    const lib = LIBS[values[index.compat]];
    const mode = raw[index.mode] === undefined ? lib.dflt : raw[index.mode];
    if (V.minScale) throw new RangeError(`compat: '${lib.name}' reproduces ${lib.call}, a Resize; ${V.name} does not take it`);
    if (!(mode in lib.filters)) {
      const other = Object.values(LIBS).find((l) => mode in l.filters);
      throw new RangeError(`mode: compat '${lib.name}' has no '${mode}' (${lib.call} has ${Object.keys(lib.filters).map((n) => `'${n}'`).join(', ')})${other ? `; '${mode}' exists with compat '${other.name}'` : ''}`);
    }
    for (let i = 0; i < values.length; i++) {  // the attributes (raw's lists follow them)
      if (i === index.mode || i === index.compat || raw[i] === undefined) continue;
      throw new RangeError(`${keys[i]}: compat '${lib.name}' reproduces ${lib.call}, which has no such parameter; give only mode, sizes or scales, and axes`);
    }
    return { lib, filter: lib.filters[mode], exactScales: null };
  }

  // cvRound: to the nearest integer, half to even.
  function roundHalfEven(v) {
    const f = Math.floor(v), d = v - f;
    return d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f;
  }

  // sampler.resize under a compat mode. cx: the sampler's osw-compat.wasm exports; p:
  // api/resize.js's Resize parameters (axes, sizes or scales; p.compat: what args() returned, with
  // exactScales: resize()'s scales as given).
  function resize(sampler, cx, x, p, target) {
    const { lib, filter } = p.compat;
    const what = `compat '${lib.name}'`;
    if (x.type !== 'uint8' && x.type !== 'float32')
      throw new TypeError(`x: ${what} resizes uint8 and float32 tensors (as ${lib.call} does images of bytes and of floats), got '${x.type}'`);
    const dims = x.dims, rank = dims.length, opencv = lib.lib === 1;
    // Per axis: the output length and the library's scale (output / input). Pillow takes
    // sizes only (its scale is in / out of them). cv2.resize with fx / fy keeps them as the
    // scales and rounds in * fx to the nearest integer, half to even (cvRound).
    const outDims = dims.slice(), inv = new Array(rank).fill(1);
    const n = p.axes ? p.axes.length : rank;
    for (let i = 0; i < n; i++) {
      const a = p.axes ? p.axes[i] : i, len = dims[a];
      if (p.sizes) {
        if (p.sizes[i] < 0) throw new RangeError(`sizes[${i}]: must be non-negative, got ${p.sizes[i]}`);
        outDims[a] = p.sizes[i];
        inv[a] = len > 0 ? p.sizes[i] / len : 1;
      } else {
        const s = p.compat.exactScales ? p.compat.exactScales[i] : p.scales[i];
        if (!(s > 0) || !Number.isFinite(s)) throw new RangeError(`scales[${i}]: must be positive and finite, got ${s}`);
        outDims[a] = opencv ? roundHalfEven(len * s) : Math.floor(len * s);
        inv[a] = opencv ? s : (len > 0 ? outDims[a] / len : 1);
      }
    }
    // The image's axes H and W: the two that \`axes\` names, when it names two adjacent ones;
    // else channels last (... H, W, C) when the last axis has 1 to 4 values and keeps its
    // length and scale; else the last two axes (... H, W: channels as planes, as NCHW).
    // Only H and W may change; the axes before them count images, the axes after them
    // multiply to the channels of a pixel.
    const ax = p.axes;
    let w = rank - 1;
    if (ax && ax.length === 2 && Math.abs(ax[0] - ax[1]) === 1) w = Math.max(ax[0], ax[1]);
    else if (rank >= 3 && outDims[w] === dims[w] && inv[w] === 1 && dims[w] <= 4) w = rank - 2;
    const h = w - 1;
    const changed = [];
    for (let a = 0; a < rank; a++) if (outDims[a] !== dims[a] || (opencv && inv[a] !== 1)) changed.push(a);
    if (changed.some((a) => a !== h && a !== w))
      throw new RangeError(`${what}: resizes images; of [${dims.join(', ')}] -> [${outDims.join(', ')}] only the axes H = ${h} and W = ${w} may change, got axes [${changed.join(', ')}] (name the image's H and W with axes: [h, w])`);
    let outN = 1;
    for (const d of outDims) outN *= d;
    const prod = (from, to) => { let v = 1; for (let a = from; a < to; a++) v *= dims[a]; return v; };
    const count = prod(0, h >= 0 ? h : w), inH = h >= 0 ? dims[h] : 1, inW = dims[w], channels = prod(w + 1, rank);
    const resample = changed.length > 0 && outN > 0;
    if (resample && (inH === 0 || inW === 0))
      throw new RangeError(`x: an axis of length 0 cannot be resized to a non-zero length (dims [${dims.join(', ')}] -> [${outDims.join(', ')}])`);
    if (resample && !(channels >= 1 && channels <= 4))
      throw new RangeError(`${what}: an image has 1 to 4 channels (the axes after W), got ${channels} (dims [${dims.join(', ')}], W = axis ${w})`);
    const B = x.info.bytes, yBytes = outN * B;
    // Pillow premultiplies LA and RGBA (2 and 4 channels of bytes) as Image.resize does.
    const premultiply = !opencv && B === 1 && (channels === 2 || channels === 4) ? 1 : 0;
    // In the sampler's memory: X and Y where they are (its tensors) or copied (sampler._io).
    return sampler._io(x, null, target, { dims: outDims, n: outN }, (xp, gp, yp) => {
      if (!resample) {  // the same shape (a copy, as both libraries make), or nothing
        sampler._M.HEAPU8.copyWithin(yp, xp, xp + yBytes);
        return;
      }
      const status = cx.osw_compat_resize(lib.lib, B === 1 ? 0 : 1, filter, xp, yp, count, inH, inW, channels,
        h >= 0 ? outDims[h] : 1, outDims[w], inv[w], h >= 0 ? inv[h] : 1, premultiply);
      if (status === 1) throw new RangeError(`out of memory: ${what} could not allocate its scratch memory`);
      if (status !== 0) throw new Error(`onnx-sampling-wasm: osw-compat.wasm refused a resize (status ${status}); please report it`);
    });
  }

  // ---------------------------------------------------------------- preprocessing helpers
  // (sampler methods installed by image.js; they live here, with the compat modes they use,
  // so that the default download does not grow). h: image.js's helpers.

  // Python's round(): half to even.
  const pyRound = roundHalfEven;

  // The pixels of an image as a uint8 (1, H, W, C) tensor (C = 3 for RGB input, else 4).
  const imageTensor = (px) => ({ type: 'uint8', dims: [1, px.height, px.width, px.rgb ? 3 : 4], data: px.data });

  // Pads / crops the (1, H, W, C) bytes to (1, th, tw, C): the window starts at (top, left)
  // of the source (negative: padding there), outside pixels take fill (one value per
  // channel). Out: the array kind of the result.
  function cut(y, th, tw, top, left, fill, Out = Uint8ClampedArray) {
    const [, H, W, C] = y.dims, src = y.data, out = new Out(th * tw * C);
    for (let i = 0; i < th; i++) {
      const si = i + top;
      for (let j = 0; j < tw; j++) {
        const sj = j + left, o = (i * tw + j) * C;
        if (si >= 0 && si < H && sj >= 0 && sj < W) for (let c = 0; c < C; c++) out[o + c] = src[(si * W + sj) * C + c];
        else for (let c = 0; c < C; c++) out[o + c] = fill[c];
      }
    }
    return out;
  }

  // torchvision's transforms.Resize(size) + CenterCrop(crop): the shorter side becomes
  // size (the longer int(size * long / short)), then the centre crop (window corner
  // round((H - th) / 2), padded with 0 where the crop is larger). An image: as on a PIL
  // image (Image.resize BILINEAR by default, Pillow's bytes: compat 'pillow'); a tensor
  // ((N, )C, H, W): as on a tensor (F.interpolate, antialias, align_corners=False:
  // compat 'pytorch' with antialias).
  function resizeCrop(sampler, input, o, h) {
    const size = h.checkSize(o.size, 'size');
    const crop = o.crop === undefined ? [size, size] : typeof o.crop === 'number' ? [o.crop, o.crop] : o.crop;
    if (!Array.isArray(crop) || crop.length !== 2) throw new TypeError(`crop: expected a number or [height, width], got ${h.describe(o.crop)}`);
    const [th, tw] = crop.map((v, i) => h.checkSize(v, typeof o.crop === 'number' ? 'crop' : `crop[${i}]`));
    const tensor = input !== null && typeof input === 'object' && 'type' in input && 'dims' in input;
    const px = tensor ? null : h.readPixels(input, 'image');
    const x = tensor ? h.checkTensor(input, 'x') : imageTensor(px);
    const rank = x.dims.length;
    if (tensor && (rank < 3 || rank > 4)) throw new RangeError(`x: expected dims (C, H, W) or (N, C, H, W), got [${x.dims.join(', ')}]`);
    const hAxis = tensor ? rank - 2 : 1, H = x.dims[hAxis], W = x.dims[hAxis + 1];
    const short = Math.min(H, W), long = Math.max(H, W), other = Math.floor(size * long / short);
    const [oh, ow] = W <= H ? [other, size] : [size, other];
    const ro = tensor
      ? { sizes: [oh, ow], axes: [hAxis, hAxis + 1], mode: o.mode || 'linear', antialias: true, compat: 'pytorch', coordinateTransformationMode: 'pytorch_half_pixel' }
      : { sizes: [oh, ow], axes: [1, 2], mode: o.mode || 'linear', compat: 'pillow' };
    const y = oh === H && ow === W ? x : sampler.resize(x, ro);
    const top = th > oh ? -((th - oh) >> 1) : pyRound((oh - th) / 2), left = tw > ow ? -((tw - ow) >> 1) : pyRound((ow - tw) / 2);
    if (!tensor) {
      const C = y.dims[3];
      return h.imageOut(cut(y, th, tw, top, left, new Array(C).fill(0)), tw, th, px);
    }
    // a tensor: every (N, C) plane cropped alike
    const planes = x.dims.slice(0, hAxis).reduce((a, b) => a * b, 1), out = new y.data.constructor(planes * th * tw);
    for (let p = 0; p < planes; p++) {
      const plane = { dims: [1, oh, ow, 1], data: y.data.subarray(p * oh * ow, (p + 1) * oh * ow) };
      out.set(cut(plane, th, tw, top, left, [0], y.data.constructor), p * th * tw);
    }
    return { type: y.type, dims: [...x.dims.slice(0, hAxis), th, tw], data: out };
  }

  // YOLO's letterbox (Ultralytics LetterBox, center=True, scaleup=True, auto=False): scale
  // r = min(height / H, width / W); the image resized to (round(W r), round(H r)) by
  // cv2.resize INTER_LINEAR (compat 'opencv'), then padded on each side to width x height
  // (left = round(dw / 2 - 0.1), top = round(dh / 2 - 0.1)) with fill (default 114; alpha
  // 255). Returns { image, scale, left, top } (a box maps back as (x - left) / scale).
  function letterbox(sampler, image, o, h) {
    const width = h.checkSize(o.width, 'width'), height = h.checkSize(o.height, 'height');
    const fillV = o.fill === undefined ? 114 : h.checkInt(o.fill, 'fill');
    if (fillV < 0 || fillV > 255) throw new RangeError(`fill: expected a byte value 0..255, got ${fillV}`);
    const px = h.readPixels(image, 'image'), H = px.height, W = px.width;
    const r = Math.min(height / H, width / W);
    const nw = pyRound(W * r), nh = pyRound(H * r);
    const x = imageTensor(px);
    const y = nw === W && nh === H ? x : sampler.resize(x, { sizes: [nh, nw], axes: [1, 2], compat: 'opencv', mode: o.mode || 'linear' });
    const dw = (width - nw) / 2, dh = (height - nh) / 2;
    const left = pyRound(dw - 0.1), top = pyRound(dh - 0.1);
    const C = y.dims[3], fill = C === 4 ? [fillV, fillV, fillV, 255] : [fillV, fillV, fillV];
    return { image: h.imageOut(cut(y, height, width, -top, -left, fill), width, height, px), scale: r, left, top };
  }

  // cv2.warpAffine's geometry: matrix [[a, b, c], [d, e, f]] maps source pixel coordinates
  // (pixel centres at integers) to the output's (inverse: true, the output's to the
  // source's, as WARP_INVERSE_MAP). Sampled by gridSample (mode, paddingMode) through
  // affineGrid in float64, premultiplied for linear and cubic so that transparent pixels
  // do not bleed; the output is width x height (default: the input's).
  function warpImage(sampler, image, matrix, o, h) {
    const m = Array.isArray(matrix) && matrix.length === 2 && matrix.every((row) => Array.isArray(row) && row.length === 3) ? matrix.flat()
      : Array.isArray(matrix) || ArrayBuffer.isView(matrix) ? Array.from(matrix) : null;
    if (!m || m.length !== 6) throw new TypeError(`matrix: expected a 2x3 matrix ([[a, b, c], [d, e, f]] or 6 numbers), got ${h.describe(matrix)}`);
    m.forEach((v, i) => { if (typeof v !== 'number' || !Number.isFinite(v)) throw new RangeError(`matrix[${i}]: expected a finite number, got ${h.describe(v)}`); });
    const px = h.readPixels(image, 'image'), H = px.height, W = px.width;
    const ow = o.width === undefined ? W : h.checkSize(o.width, 'width'), oh = o.height === undefined ? H : h.checkSize(o.height, 'height');
    let [a, b, c, d, e, f] = m;
    if (!o.inverse) {  // the inverse map: output -> source
      const det = a * e - b * d;
      if (!(det !== 0) || !Number.isFinite(1 / det)) throw new RangeError('matrix: not invertible (its determinant is 0)');
      [a, b, c, d, e, f] = [e / det, -b / det, (b * f - c * e) / det, -d / det, a / det, (c * d - a * f) / det];
    }
    // Output index j has base coordinate u = (2j + 1) / ow - 1 (affineGrid, alignCorners
    // false), so j = (ow u + ow - 1) / 2; source pixel p has grid value (2p + 1) / W - 1.
    const ax = ow / 2, cx = (ow - 1) / 2, ay = oh / 2, cy = (oh - 1) / 2, sx = 2 / W, sy = 2 / H;
    const theta = { type: 'float64', dims: [1, 2, 3], data: new Float64Array([
      sx * a * ax, sx * b * ay, sx * (a * cx + b * cy + c) + 1 / W - 1,
      sy * d * ax, sy * e * ay, sy * (d * cx + e * cy + f) + 1 / H - 1]) };
    const grid = sampler.affineGrid(theta, [1, 1, oh, ow]);
    const mode = o.mode || 'linear', premul = mode !== 'nearest';
    // RGBA bytes -> float32 planes (premultiplied), and back
    const n = W * H, src = h.rgbaOf(px), x = new Float32Array(4 * n);
    for (let i = 0; i < n; i++) {
      const al = src[4 * i + 3], k = premul ? al / 255 : 1;
      x[i] = src[4 * i] * k; x[n + i] = src[4 * i + 1] * k; x[2 * n + i] = src[4 * i + 2] * k; x[3 * n + i] = al;
    }
    const y = sampler.gridSample({ type: 'float32', dims: [1, 4, H, W], data: x }, grid,
      { mode, paddingMode: o.paddingMode || 'zeros', alignCorners: false }).data;
    const m2 = ow * oh, out = new Uint8ClampedArray(4 * m2);
    for (let i = 0; i < m2; i++) {
      const al = y[3 * m2 + i], k = premul ? (al >= 0.5 ? 255 / Math.min(al, 255) : 0) : 1;
      out[4 * i] = y[i] * k; out[4 * i + 1] = y[m2 + i] * k; out[4 * i + 2] = y[2 * m2 + i] * k; out[4 * i + 3] = al;
    }
    return h.imageOut(out, ow, oh, px);
  }

  return {
    resizeCrop, letterbox, warpImage,
    find, findSync, args, resize,
    instantiate: (module, M, shared) => Promise.resolve().then(() => WebAssembly.instantiate(module, link(module, M)))
      .then(ready, (e) => { throw linkError(e, shared); }),
    instantiateSync(module, M, shared) {
      let instance;
      try {
        instance = new WebAssembly.Instance(module, link(module, M));
      } catch (e) {
        throw linkError(e, shared);
      }
      return ready(instance);
    },
  };
}
