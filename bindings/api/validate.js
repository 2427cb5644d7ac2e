// validate.js: argument checking for the JavaScript API, and the texts of its errors.
//
// Each check takes the argument's name and throws TypeError for a wrong kind of value and
// RangeError for a bad value, the message naming the argument; unknown names get a "did you
// mean". Also here: the options and ONNX attribute objects, the operator version in force at
// an opset, the wasmBinary / wasmUrl options, and the core's error texts decoded.

// ---------------------------------------------------------------- error helpers

export function describe(v) {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (typeof v === 'function') return 'a function';
  if (Array.isArray(v)) return 'an array';
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name}`;
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '...' : v)}`;
  if (typeof v === 'bigint') return `the bigint ${v}n`;
  return `${typeof v} ${String(v)}`;
}

// Edit distance, for "did you mean" on unknown names (short strings only).
function distance(a, b) {
  const m = a.length, n = b.length;
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[n];
}
export function didYouMean(name, choices) {
  if (typeof name !== 'string' || name.length > 64) return '';
  let best = null, bestD = Infinity;
  for (const c of choices) {
    const d = distance(name.toLowerCase(), c.toLowerCase());
    if (d < bestD) { bestD = d; best = c; }
  }
  return best !== null && bestD <= Math.max(2, Math.floor(best.length / 3)) ? ` (did you mean '${best}'?)` : '';
}

// ---------------------------------------------------------------- value checks

// Checks take the argument's name, and an element's index i where it is one of a list:
// the element's name, what[i], is then built only for a message (no string per call).
export const nameOf = (what, i) => (i === undefined ? what : `${what}[${i}]`);

export function checkInt(v, what, i) {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v === 0 ? 0 : v; // -0 -> 0
  what = nameOf(what, i);
  if (typeof v === 'bigint') {
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER))
      throw new RangeError(`${what}: ${v} is too large`);
    return Number(v);
  }
  if (typeof v !== 'number') throw new TypeError(`${what}: expected an integer, got ${describe(v)}`);
  throw new RangeError(`${what}: expected an integer, got ${v}`);  // a number, not a safe integer
}

export function checkNumber(v, what, i) {
  if (typeof v !== 'number') throw new TypeError(`${nameOf(what, i)}: expected a number, got ${describe(v)}`);
  return v;
}

// Element checks for checkList, made once.
export const intElem = (e, what, i) => checkInt(e, what, i);
export const numberElem = (e, what, i) => checkNumber(e, what, i);
export const float32Elem = (e, what, i) => Math.fround(checkNumber(e, what, i));

export function checkFinite(v, what) {
  checkNumber(v, what);
  if (!Number.isFinite(v)) throw new RangeError(`${what}: expected a finite number, got ${v}`);
  return v;
}

// A flag: true/false, or the ONNX attribute's 0/1.
export function checkBool01(v, what) {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === 1 || v === 1n) return 1;
  if (v === 0 || v === 0n) return 0;  // -0 too
  if (typeof v === 'number' || typeof v === 'bigint')
    throw new RangeError(`${what}: expected true or false (or 0 or 1), got ${v}`);
  throw new TypeError(`${what}: expected true or false (or 0 or 1), got ${describe(v)}`);
}

export function checkEnum(v, what, table) {
  if (typeof v !== 'string') throw new TypeError(`${what}: expected a string, got ${describe(v)}`);
  if (!Object.prototype.hasOwnProperty.call(table, v)) {
    const names = Object.keys(table);
    throw new RangeError(`${what}: unknown value '${v}'; expected one of ${names.map((n) => `'${n}'`).join(', ')}${didYouMean(v, names)}`);
  }
  return table[v];
}

// Array-like of numbers (Array, TypedArray) -> plain array, with each element checked.
export function checkList(v, what, elem) {
  if (!(Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView))))
    throw new TypeError(`${what}: expected an array of numbers, got ${describe(v)}`);
  const out = new Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = elem(v[i], what, i);
  return out;
}

// ---------------------------------------------------------------- attributes and options

// The operator version in force at an opset: the newest version not newer than it.
export function opVersion(opType, opset, versions) {
  let v = 0;
  for (const k of versions) if (k <= opset && k > v) v = k;
  if (v === 0)
    throw new RangeError(`opset: ${opType} does not exist before opset ${Math.min(...versions)}, got opset ${opset}`);
  return v;
}

export function checkAttributes(attributes, allowed, opName) {
  if (attributes === undefined || attributes === null) return {};
  if (typeof attributes !== 'object' || Array.isArray(attributes))
    throw new TypeError(`attributes: expected an object of ONNX attributes, got ${describe(attributes)}`);
  for (const k of Object.keys(attributes)) {
    if (!allowed.includes(k))
      throw new RangeError(`attributes.${k}: ${opName} has no attribute '${k}'${didYouMean(k, allowed)}; it knows ${allowed.join(', ')}`);
  }
  return attributes;
}

export function attr(attributes, name, dflt) {
  const v = attributes[name];
  return v === undefined ? dflt : v;
}

// The wasmBinary and wasmUrl options (of createSampler and loadCompat), in one form each:
// the bytes as a Uint8Array, or the module compiled already (hosts that compile no wasm
// from bytes, such as Cloudflare Workers, import .wasm files as WebAssembly.Module).
export function wasmBytesOption(b, fn) {
  if (ArrayBuffer.isView(b)) return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  if (/^\[object (Shared)?ArrayBuffer\]$/.test(Object.prototype.toString.call(b))) return new Uint8Array(b);
  if (/^\[object WebAssembly\.Module\]$/.test(Object.prototype.toString.call(b))) return b;
  throw new TypeError(`${fn}: wasmBinary: expected the .wasm bytes (an ArrayBuffer or Uint8Array) or a compiled WebAssembly.Module, got ${describe(b)}`);
}
export function wasmUrlOption(u, fn) {
  if (typeof u === 'string') return u;
  if (u !== null && typeof u === 'object' && typeof u.href === 'string') return u.href;
  throw new TypeError(`${fn}: wasmUrl: expected a string or a URL, got ${describe(u)}`);
}

// The core writes a non-integer number of a message as a token (src/core/types.h, num_text):
// U+001A, the 16 hex digits of its IEEE-754 bits, U+001A. Printed here as JavaScript does.
export function decodeNumbers(msg) {
  // eslint-disable-next-line no-control-regex -- U+001A is the core's token delimiter
  return msg.replace(/\x1a([0-9a-f]{16})\x1a/g, (_, hex) => {
    const view = new DataView(new ArrayBuffer(8));
    view.setUint32(0, parseInt(hex.slice(0, 8), 16));
    view.setUint32(4, parseInt(hex.slice(8), 16));
    return String(view.getFloat64(0));
  });
}

export function checkOptions(options, fn, allowed) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options))
    throw new TypeError(`${fn}: options must be an object, got ${describe(options)}`);
  for (const k in options) {  // own keys (the enum cache: no array per call)
    if (Object.prototype.hasOwnProperty.call(options, k) && !allowed.includes(k))
      throw new RangeError(`${fn}: unknown option '${k}'${didYouMean(k, allowed)}; known options: ${allowed.join(', ')}`);
  }
  return options;
}

export function opt(o, name, dflt) {
  const v = o[name];
  return v === undefined ? dflt : v;
}

// An enum option: its code, or the default's when absent (no check needed for that).
export function enumOpt(o, name, dflt, table) {
  const v = o[name];
  return v === undefined ? table[dflt] : checkEnum(v, name, table);
}