// compat.js: the JavaScript half of the compat modes 'pillow' and 'opencv' (resize by
// PIL.Image.resize's or cv2.resize's rules, bit for bit, in osw-compat.wasm).
//
// Only programs that use those modes need it, so browsers fetch it with the wasm: scripts/
// build.mjs makes it dist/compat.mjs, which sampler.loadCompat() imports from browser.mjs.
// The Node entries and the browser worker (dist/worker.mjs) carry it inline. Either way,
// oswCompatCode(find, findSync) gives the entry's object { find, findSync, instantiate,
// instantiateSync, resize }, where find / findSync are the entry's ways to get the
// compiled osw-compat.wasm (findSync: null where the host cannot read files at once).

/* eslint-disable no-unused-vars */
// What to do when osw-compat.wasm cannot be loaded (loader.js's oswLoadError).
const OSW_COMPAT_FIX = 'The compat modes \'pillow\' and \'opencv\' need it: if a bundler did not copy it, copy ' +
  'node_modules/onnx-sampling-wasm/dist/osw-compat.wasm next to your bundle, or say where it is with ' +
  'sampler.loadCompat({ wasmUrl }) (or createSampler({ loadCompat: { wasmUrl } })), or pass its bytes with { wasmBinary }';

function oswCompatCode(find, findSync) {
  'use strict';
  // Its one import: memory growth is no event here (views are made afresh per call).
  const imports = { env: { emscripten_notify_memory_growth() {} } };
  const ready = (instance) => {
    const e = instance.exports;
    e._initialize();  // the C++ runtime's constructors (a reactor module)
    return e;
  };

  // The libraries (by api.js's COMPATS code): the filters each has and their codes in
  // src/compat/compat.h (PillowFilter, CvInterp), and its default filter. nearest, linear
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

  // The checks of a compat library's Resize, on api.js's reading of the attributes or
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
  // api.js's Resize parameters (axes, sizes or scales; p.compat: what args() returned, with
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
    let dst = null;
    if (target) {
      if (target.type !== x.type) throw new TypeError(`output: expected a '${x.type}' tensor (the type of X), got '${target.type}'`);
      if (target.dims.length !== rank || target.dims.some((d, i) => d !== outDims[i]))
        throw new RangeError(`output: expected dims [${outDims.join(', ')}], got [${target.dims.join(', ')}]`);
      dst = target.wasm ? target.wasm.data : target.data;
    }
    const xData = x.wasm ? x.wasm.data : x.data;
    const src = new Uint8Array(xData.buffer, xData.byteOffset, x.size * B);
    let out;
    if (!resample) {
      out = src.slice(0, yBytes);  // the same shape (a copy, as both libraries make), or nothing
    } else {
      for (const [name, bytes] of [['X', src.length], ['Y', yBytes]])
        if (!(bytes <= sampler._maxBytes))
          throw new RangeError(`${name}: needs ${bytes} bytes, more than the limit of ${sampler._maxBytes} bytes (createSampler({ maxBytes }))`);
      const xp = cx.osw_compat_alloc(src.length) >>> 0, yp = xp ? cx.osw_compat_alloc(yBytes) >>> 0 : 0;
      try {
        if (!xp || !yp) throw new RangeError(`out of memory: cannot allocate ${src.length + yBytes} bytes for ${what}`);
        new Uint8Array(cx.memory.buffer).set(src, xp);
        // Pillow premultiplies LA and RGBA (2 and 4 channels of bytes) as Image.resize does.
        const premultiply = !opencv && B === 1 && (channels === 2 || channels === 4) ? 1 : 0;
        const status = cx.osw_compat_resize(lib.lib, B === 1 ? 0 : 1, filter, xp, yp, count, inH, inW, channels,
          h >= 0 ? outDims[h] : 1, outDims[w], inv[w], h >= 0 ? inv[h] : 1, premultiply);
        if (status === 1) throw new RangeError(`out of memory: ${what} could not allocate its scratch memory`);
        if (status !== 0) throw new Error(`onnx-sampling-wasm: osw-compat.wasm refused a resize (status ${status}); please report it`);
        out = new Uint8Array(cx.memory.buffer).slice(yp, yp + yBytes);
      } finally {
        if (xp) cx.osw_compat_free(xp);
        if (yp) cx.osw_compat_free(yp);
      }
    }
    if (dst) {
      new Uint8Array(dst.buffer, dst.byteOffset, yBytes).set(out);
      return target.tensor;
    }
    const Ctor = x.wasm ? x.info.arrays[0] : xData.constructor;
    return { type: x.type, dims: outDims, data: Ctor === Uint8Array ? out : new Ctor(out.buffer, 0, outN) };
  }

  return {
    find, findSync, args, resize,
    instantiate: (module) => WebAssembly.instantiate(module, imports).then(ready),
    instantiateSync: (module) => ready(new WebAssembly.Instance(module, imports)),
  };
}
