// check-layers.mjs: every #include "..." in src/ points down the layers, never up, and no
// operator includes another operator's folder.
//
//   node scripts/check-layers.mjs    exits 1 listing each include that breaks a rule
//                                    (file:line, the include and the rule), 0 otherwise
//
// The layers, lowest first (a file may include its own layer and the layers below it):
//   core/        types, dtypes, element traits, conversions, SIMD wrapper, exact integers
//   threads/     the thread pool (knows no operator)
//   imaging/     the Pillow/OpenCV module: includes core/ and its own folder only
//   and inside each operator folder (resize/, gridsample/, affinegrid/), by file name:
//     params*        attributes, validation, output shapes
//     coordinates*   coordinate transforms, padding
//     plan*          what is decided once per shape (tables, blocks, schedules)
//     workspace*     what a run writes besides Y
//     kernels*, exact*   the inner loops and the exact decisions of integer outputs
//     exec*          a run of a plan: dispatch by type onto the kernels
//     <folder>.h/.cpp    the operator's API (resize/resize.h, ...)
//     parallel*      the operator's work described for the pool (above its API: it runs
//                    the API's ranges)
// Same-layer includes are allowed (kernels_fast2d.h builds on kernels_generic.h; a .cpp
// includes its own header). A file the table does not place is an error: name it after its
// layer, or add its pattern here.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const OPERATORS = new Set(['resize', 'gridsample', 'affinegrid']);
// [pattern on the file's stem, layer rank, layer name]; the first match wins.
const OPERATOR_LAYERS = [
  [/^params/, 10, 'params'],
  [/^coordinates/, 11, 'coordinates'],
  [/^plan/, 12, 'plan'],
  [/^workspace/, 13, 'workspace'],
  [/^(kernels|exact)/, 14, 'kernels'],
  [/^exec/, 15, 'exec'],
  [/^parallel/, 18, 'parallel'],
];

// { rank, layer, folder } of a path relative to src/, or null when the table has no place.
function place(rel) {
  const [folder, file, ...rest] = rel.split('/');
  if (!file || rest.length) return null;
  const stem = file.replace(/\.(h|cpp)$/, '');
  if (stem === file) return null;
  if (folder === 'core') return { rank: 0, layer: 'core', folder };
  if (folder === 'threads') return { rank: 1, layer: 'threads', folder };
  if (folder === 'imaging') return { rank: 2, layer: 'imaging', folder };
  if (!OPERATORS.has(folder)) return null;
  if (stem === folder) return { rank: 17, layer: `${folder} API`, folder };
  for (const [re, rank, layer] of OPERATOR_LAYERS) if (re.test(stem)) return { rank, layer, folder };
  return null;
}

function listSources(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...listSources(p));
    else if (/\.(h|cpp)$/.test(e.name)) out.push(p);
  }
  return out;
}

const problems = [];
const files = listSources(src).map((p) => relative(src, p).split('\\').join('/')).sort();
for (const rel of files) {
  const from = place(rel);
  if (!from) {
    problems.push(`src/${rel}: not placed in a layer (name it after its layer, or add it to scripts/check-layers.mjs)`);
    continue;
  }
  const lines = readFileSync(join(src, rel), 'utf8').split('\n');
  lines.forEach((line, i) => {
    const m = /^\s*#\s*include\s+"([^"]+)"/.exec(line);
    if (!m) return;
    const inc = m[1];
    const to = place(inc);
    const at = `src/${rel}:${i + 1}: #include "${inc}"`;
    if (!to) {
      problems.push(`${at}: not a file of src/ that the layer table places`);
    } else if (from.layer === 'imaging' && to.folder !== 'core' && to.folder !== 'imaging') {
      problems.push(`${at}: imaging/ includes core/ and imaging/ only`);
    } else if (OPERATORS.has(to.folder) && to.folder !== from.folder) {
      problems.push(`${at}: ${from.folder}/ includes another operator's folder`);
    } else if (to.rank > from.rank) {
      problems.push(`${at}: ${from.layer} includes ${to.layer}, a layer above it`);
    }
  });
}

if (problems.length) {
  console.error(`check-layers: ${problems.length} include(s) break the layers of src/:`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log(`check-layers: ${files.length} files of src/, every include points down`);
