// memfloor.mjs: the memory floor, a lower bound for a resize that reads its input once and
// writes its output once.
//
// The reference is a tiny WebAssembly module assembled byte by byte below (no toolchain):
//
//   (module
//     (memory (export "memory") PAGES)
//     (func (export "copy") (param $dst i32) (param $src i32) (param $n i32)
//       local.get $dst  local.get $src  local.get $n  memory.copy))
//
// The floor workload moves the byte count of a workload's input + output (for W1:
// (3*512*512 + 3*1024*1024) * 4 bytes) with one memory.copy between two distinct regions:
// every byte read once and written once. A second row does the same with JS
// TypedArray.prototype.copyWithin on an ArrayBuffer.

export const id = 'floor';

// Unsigned LEB128.
function leb(n) {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}
const vec = (items) => [...leb(items.length), ...items.flat()];
const section = (sid, bytes) => [sid, ...leb(bytes.length), ...bytes];
const name = (s) => vec([...new TextEncoder().encode(s)].map((b) => [b]));

const I32 = 0x7f, FUNC = 0x60, LOCAL_GET = 0x20, END = 0x0b;
const MEMORY_COPY = [0xfc, ...leb(10), 0x00, 0x00]; // memory.copy dst_mem=0 src_mem=0

/** The bytes of the module above, with `pages` 64 KiB pages of memory. */
export function floorModuleBytes(pages) {
  const body = [0x00, LOCAL_GET, 0, LOCAL_GET, 1, LOCAL_GET, 2, ...MEMORY_COPY, END];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
    ...section(1, vec([[FUNC, ...vec([[I32], [I32], [I32]]), ...vec([])]])), // type 0: (i32 i32 i32) -> ()
    ...section(3, vec([[0x00]])), // function 0 has type 0
    ...section(5, vec([[0x00, ...leb(pages)]])), // memory 0: min pages, no max
    ...section(7, vec([[...name('copy'), 0x00, 0x00], [...name('memory'), 0x02, 0x00]])), // exports
    ...section(10, vec([[...leb(body.length), ...body]])), // code
  ]);
}

export async function create() {
  return new Floor();
}

class Floor {
  constructor() {
    this.id = id;
    this.name = 'memory floor';
    this.version = '';
    this.note = 'hand-assembled wasm module: one memory.copy; and JS copyWithin';
    this.instances = [];
  }

  async prepare(spec) {
    if (spec.op !== 'floor') return [];
    const n = spec.bytes;
    const dst = Math.ceil(n / 65536) * 65536; // destination region right after the source
    const pages = Math.ceil((dst + n) / 65536);
    const { instance } = await WebAssembly.instantiate(floorModuleBytes(pages));
    const copy = instance.exports.copy;
    const mem = new Uint8Array(instance.exports.memory.buffer);
    for (let i = 0; i < mem.length; i += 4096) mem[i] = i & 0xff; // commit every page first
    copy(dst, 0, n);
    const js = new Uint8Array(dst + n);
    for (let i = 0; i < js.length; i += 4096) js[i] = i & 0xff;
    return [
      {
        label: 'wasm memory.copy (hand-assembled module)', tier: 'memory', variant: 'wasm', job: 'floor',
        includes: `one memory.copy of ${n} bytes between two regions of a wasm memory`,
        run: () => copy(dst, 0, n),
      },
      {
        label: 'JS TypedArray copyWithin', tier: 'memory', variant: 'js', job: 'floor',
        includes: `Uint8Array.copyWithin of ${n} bytes between two halves of one ArrayBuffer`,
        run: () => js.copyWithin(dst, 0, n),
      },
    ];
  }
}
