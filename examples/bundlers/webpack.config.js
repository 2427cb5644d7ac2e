// webpack 5 finds the package's `new URL('./osw.wasm', import.meta.url)` and emits the wasm
// as an asset by itself: nothing to copy.
import { fileURLToPath } from 'node:url';

export default {
  mode: 'production',
  entry: './main.js',
  output: { path: fileURLToPath(new URL('./dist', import.meta.url)), filename: 'main.js' },
};
