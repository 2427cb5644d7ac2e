// tensors.js: the tensor types and tensors of the JavaScript API.
//
// TYPES: the ONNX data types the core takes, each with its TensorProto code, its size and
// the TypedArrays that carry it. checkTensor() checks a { type, dims, data } tensor once and
// gives its checked form, the one the operators and the sampler's memory copies read;
// WasmTensor is a tensor whose data lives in its sampler's wasm memory (sampler.tensor()).
// Also the small helpers on tensor values: float16 bits, the numbers of a small tensor.

import { checkInt, describe, didYouMean } from './validate.js';

// ONNX TensorProto.DataType codes and the TypedArray each type is carried in.
const HAS_F16 = typeof Float16Array === 'function';
export const TYPES = {
  float32: { code: 1, bytes: 4, arrays: [Float32Array] },
  uint8: { code: 2, bytes: 1, arrays: [Uint8Array, Uint8ClampedArray] },
  int8: { code: 3, bytes: 1, arrays: [Int8Array] },
  uint16: { code: 4, bytes: 2, arrays: [Uint16Array] },
  int16: { code: 5, bytes: 2, arrays: [Int16Array] },
  int32: { code: 6, bytes: 4, arrays: [Int32Array] },
  int64: { code: 7, bytes: 8, arrays: [BigInt64Array] },
  bool: { code: 9, bytes: 1, arrays: [Uint8Array] },
  float16: { code: 10, bytes: 2, arrays: HAS_F16 ? [Uint16Array, Float16Array] : [Uint16Array] },
  float64: { code: 11, bytes: 8, arrays: [Float64Array] },
  uint32: { code: 12, bytes: 4, arrays: [Uint32Array] },
  uint64: { code: 13, bytes: 8, arrays: [BigUint64Array] },
  bfloat16: { code: 16, bytes: 2, arrays: [Uint16Array] },
};

const typedArrayLengthGetter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), 'length').get;
function typedArrayLength(a) { return typedArrayLengthGetter.call(a); }
const typedArrayTagGetter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), Symbol.toStringTag).get;
export function typedArrayName(a) { return typedArrayTagGetter.call(a); }  // undefined if not one

// A tensor { type, dims, data }: the fields of onnxruntime-web's Tensor, which passes as is.
export function checkTensor(t, what) {
  if (t === null || typeof t !== 'object' || ArrayBuffer.isView(t))
    throw new TypeError(`${what}: expected a tensor { type, dims, data }, got ${describe(t)}`);
  if (t instanceof WasmTensor) {
    if (t._owner._M === null) throw new Error(`${what}: ${DISPOSED}`);
    if (t._ptr === 0) throw new RangeError(`${what}: the tensor was disposed`);
    // type and dims are fixed at creation, so the checked form is made once (see the
    // constructor); data is a view created on demand (only roi/scales/sizes and grids ever
    // read it in JS).
    return t._checked;
  }
  const type = t.type;
  if (typeof type !== 'string') throw new TypeError(`${what}.type: expected a string, got ${describe(type)}`);
  const info = TYPES[type];
  if (!info) throw new TypeError(`${what}.type: unsupported tensor type '${type}'; expected one of ${Object.keys(TYPES).join(', ')}${didYouMean(type, Object.keys(TYPES))}`);
  const data = t.data;
  // By the array's internal name, so arrays from another realm (iframe, vm) pass too.
  const kind = typedArrayName(data);
  if (!info.arrays.some((A) => A.name === kind)) {
    const names = info.arrays.map((A) => A.name).join(' or ');
    throw new TypeError(`${what}.data: a '${type}' tensor needs a ${names}, got ${describe(data)}`);
  }
  const dims = t.dims;
  if (!(Array.isArray(dims) || (ArrayBuffer.isView(dims) && !(dims instanceof DataView))))
    throw new TypeError(`${what}.dims: expected an array of integers, got ${describe(dims)}`);
  const rank = dims.length;
  const d = new Array(rank);
  const dimsName = `${what}.dims`;  // one string per call; each element's only for a message
  let n = 1;
  for (let i = 0; i < rank; i++) {
    const v = checkInt(dims[i], dimsName, i);
    if (v < 0) throw new RangeError(`${what}.dims[${i}]: must be non-negative, got ${v}`);
    d[i] = v;
    n *= v;
  }
  // The intrinsic length (not a getter a subclass may override); 0 once detached.
  const length = typedArrayLength(data);
  if (n !== length)
    throw new RangeError(`${what}: dims [${d.join(', ')}] hold ${n} elements but data has ${length}`);
  return { type, dims: d, data, info, size: n, wasm: null, tensor: t };
}

// An optional input: null/undefined, or (from opset 11 on) an empty tensor, count as omitted.
export function optionalTensor(t, what, emptyIsOmitted) {
  if (t === null || t === undefined) return null;
  const v = checkTensor(t, what);
  if (emptyIsOmitted && v.size === 0) return null;
  return v;
}

export function requireType(v, what, allowed) {
  if (!allowed.includes(v.type))
    throw new TypeError(`${what}: expected a tensor of type ${allowed.join(' or ')}, got '${v.type}'`);
}

// IEEE half-precision bits -> number.
export function halfToNumber(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

// The values of a small tensor (roi, scales, sizes) as numbers.
export function tensorNumbers(v) {
  const out = new Array(v.size);
  const data = v.wasm ? v.wasm.data : v.data;
  const bits = v.type === 'float16' && data instanceof Uint16Array;
  for (let i = 0; i < v.size; i++) out[i] = bits ? halfToNumber(data[i]) : Number(data[i]);
  return out;
}

// A float16 grid is widened to float32 (exact) before it enters the core.
export function widenHalf(v) {
  if (v.type !== 'float16') return v;
  const data = new Float32Array(v.size);
  const src = v.wasm ? v.wasm.data : v.data;
  if (src instanceof Uint16Array) for (let i = 0; i < v.size; i++) data[i] = halfToNumber(src[i]);
  else data.set(src);
  return { type: 'float32', dims: v.dims, data, info: TYPES.float32, size: v.size };
}

// A tensor whose data lives in its sampler's wasm memory (sampler.tensor()). It holds the
// sampler, not the module: once the sampler is disposed, a tensor kept alive does not keep
// the module and its memory alive with it.
export class WasmTensor {
  constructor(owner, type, dims, ptr, size) {
    this._owner = owner;
    this._ptr = ptr;
    this._size = size;
    this._type = type;          // private copies the core relies on: a user who manages to
    this._dims = dims.slice();  // change the public fields cannot make it overrun memory
    // Read-only public fields: the allocation was sized for exactly these.
    Object.defineProperty(this, 'type', { value: type, enumerable: true });
    Object.defineProperty(this, 'dims', { value: Object.freeze(dims.slice()), enumerable: true });
    Object.defineProperty(this, 'size', { value: size, enumerable: true });
    // What checkTensor() gives for it: made once, from the private copies.
    this._checked = { type, dims: this._dims, data: null, info: TYPES[type], size, wasm: this, tensor: this };
  }
  get data() {
    const M = this._owner._M;
    if (M === null) throw new Error(`tensor: ${DISPOSED}`);
    if (!this._ptr) throw new RangeError('tensor: used after dispose()');
    const info = TYPES[this._type];
    const Ctor = info.arrays[0];
    return new Ctor(M.HEAPU8.buffer, this._ptr, this._size);
  }
  // Its memory is gone once it or its sampler was disposed.
  get disposed() { return this._ptr === 0 || this._owner._M === null; }
  dispose() {
    const M = this._owner._M;
    if (this._ptr && M !== null) M._osw_free(this._ptr);
    this._ptr = 0;
  }
}

export const DISPOSED = 'its sampler was disposed (sampler.dispose()); create a new one with createSampler()';