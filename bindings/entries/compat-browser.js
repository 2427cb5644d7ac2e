// entries/compat-browser.js -> dist/compat.mjs: the compat modes' JavaScript (compat.js) for
// browser.mjs, which imports it on the first loadCompat() and hands it its loader functions;
// osw-compat.wasm is found beside this file.
import { OSW_COMPAT_WASM, oswCompatCode } from '../compat.js';
import { oswBrowserCompatFind } from '../host-browser.js';

export function oswCompatMake(fetchAndCompile, compileBytes) {
  return oswCompatCode(oswBrowserCompatFind(fetchAndCompile, compileBytes, OSW_COMPAT_WASM), null);
}
