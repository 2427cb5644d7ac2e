// probe.mjs: shows that the engine enforces the policy csp.test.mjs serves: string
// evaluation is refused, while compiling WebAssembly is allowed ('wasm-unsafe-eval').
let evalRefused = '';
try { new Function('return 1')(); } catch (e) { evalRefused = e.name; }
let wasmCompiles = '';
// the smallest module: magic and version
WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))
  .then(() => { wasmCompiles = 'yes'; }, (e) => { wasmCompiles = `${e.name}: ${e.message}`; })
  .then(() => { window.__probe = { evalRefused, wasmCompiles }; });
