// package.mjs: which copy of onnx-sampling-wasm the Node tests import. OSW_PACKAGE names an
// installed package folder (scripts/test.mjs installs the packed tarball into .cache/app);
// the entry is the one Node would pick for `import 'onnx-sampling-wasm'` there (its
// "exports" with the node/import/default conditions). Without it: the repository's dist/.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function packageEntry() {
  if (!process.env.OSW_PACKAGE) return path.join(repoRoot, 'dist', 'index.mjs');
  const dir = path.resolve(process.env.OSW_PACKAGE);
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const conditions = new Set(['node', 'import', 'default']);
  const pick = (t) => {
    if (typeof t === 'string') return t;
    if (t && typeof t === 'object' && !Array.isArray(t)) {
      for (const [k, v] of Object.entries(t)) if (conditions.has(k)) { const r = pick(v); if (r) return r; }
    }
    return null;
  };
  const exp = pkg.exports;
  const entry = exp === undefined ? pkg.main || 'index.js'
    : pick(typeof exp === 'object' && Object.keys(exp).some((k) => k.startsWith('.')) ? exp['.'] : exp);
  return path.resolve(dir, entry);
}

// The module itself, imported once per test file.
export function importPackage() {
  return import(pathToFileURL(packageEntry()).href);
}
