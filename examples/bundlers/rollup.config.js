// Rollup resolves the package with @rollup/plugin-node-resolve (the browser build); it keeps
// `new URL('./osw.wasm', import.meta.url)` as is, so osw.wasm is copied next to the output.
import { nodeResolve } from '@rollup/plugin-node-resolve';

export default {
  input: 'main.js',
  output: { dir: 'dist', format: 'es' },
  plugins: [nodeResolve({ browser: true })],
};
