// chart.mjs: draws the README's performance chart from one `npm run bench` result.
//
//   node bench/chart.mjs [bench/results/latest.json] [docs/performance.svg]
//
// One row per workload (W1-W7b), labelled with our median time, and one bar per other library:
// its median time with arrays in and out divided by ours, on a log scale (1 = as fast as this
// library; 10 = ten times its time).
// A peer that computes a related job (another filter or border rule) is drawn lighter. The
// chart says when and where it was measured; it writes SVG text and needs no library.
import { readFileSync, writeFileSync } from 'node:fs';

const [input = 'bench/results/latest.json', output = 'docs/performance.svg'] = process.argv.slice(2);
const result = JSON.parse(readFileSync(input, 'utf8'));
if (result.settings?.smokeRun) throw new Error(`${input} is a smoke run (--quick or few rounds): run a full \`npm run bench\``);

const LIBS = [
  ['ours', 'onnx-sampling-wasm', '#1f6feb'],
  ['ort', 'onnxruntime-web', '#d1242f'],
  ['tfjs', 'tfjs-backend-wasm', '#bf8700'],
  ['opencv', 'OpenCV.js', '#1a7f37'],
  ['pica', 'pica', '#8250df'],
];
const SHORT = {
  W1: 'linear f32 512² → 1024²', W2: 'nearest f32 512² → 1024²', W3: 'cubic f32 512² → 1024²',
  W4: 'antialias f32 2048² → 512²', W5: 'GridSample linear 32×256²', W6: 'GridSample cubic 8×256²',
  W7a: 'uint8 RGBA 1080p → 4K', W7b: 'uint8 RGBA 4K → 540p AA',
};

// One one-thread array-tier case of each library in a workload: its median and whether its
// job is the same as ours.
function bars(workload) {
  const out = [];
  for (const [lib] of LIBS) {
    const cases = workload.cases.filter((c) => c.lib === lib && c.tier === 'array' && !c.threads && c.variant !== 'worker' && Number.isFinite(c.median));
    if (!cases.length) continue;
    // A library's default (pica's filter) where it has one, as the README's table; else its fastest.
    const dflt = cases.find((c) => /\(default\)/.test(c.label));
    const best = dflt || cases.reduce((a, b) => (b.median < a.median ? b : a));
    out.push({ lib, median: best.median, similar: best.job === 'similar' });
  }
  return out;
}

const rows = [];
for (const w of result.workloads) {
  const all = SHORT[w.id] ? bars(w) : [];
  const ours = all.find((b) => b.lib === 'ours');
  if (ours && all.length > 1) rows.push({ id: w.id, ours: ours.median, bars: all.filter((b) => b !== ours) });
}
if (!rows.length) throw new Error(`${input} has none of the workloads W1-W7b with a peer`);

const W = 760, left = 250, right = 30, top = 66, barH = 9, gap = 14;
const ratios = rows.flatMap((r) => r.bars.map((b) => b.median / r.ours));
const maxDecade = Math.ceil(Math.log10(Math.max(...ratios, 10)));
const minDecade = Math.min(0, Math.floor(Math.log10(Math.min(...ratios))));
const x = (v) => left + ((Math.log10(v) - minDecade) / (maxDecade - minDecade)) * (W - left - right);
const rowH = (r) => Math.max(r.bars.length * barH, 24) + gap;
const plotH = rows.reduce((s, r) => s + rowH(r), 0);
const H = top + plotH + 40;
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');

const svg = [];
svg.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, sans-serif" font-size="12">`);
svg.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
const date = String(result.generated || '').slice(0, 10);
svg.push(`<text x="20" y="18" font-size="14" font-weight="600">Peers' time relative to onnx-sampling-wasm (log scale; 1× = as fast)</text>`);
svg.push(`<text x="20" y="34" fill="#555">${esc(`npm run bench, ${date}: medians of ${result.settings.runs} rounds, one thread, arrays in and out.`)}</text>`);
svg.push(`<text x="20" y="48" fill="#555">Lighter bars: a related job (another filter or border rule).</text>`);
let lx = left;
for (const [lib, name, color] of LIBS) {
  if (lib === 'ours' || !rows.some((r) => r.bars.some((b) => b.lib === lib))) continue;
  svg.push(`<rect x="${lx}" y="${H - 18}" width="10" height="10" fill="${color}"/><text x="${lx + 14}" y="${H - 9}">${esc(name)}</text>`);
  lx += 28 + name.length * 7;
}
for (let d = minDecade; d <= maxDecade; d++) {
  const gx = x(10 ** d);
  svg.push(`<line x1="${gx}" y1="${top - 6}" x2="${gx}" y2="${top + plotH - gap / 2}" stroke="#ddd"/>`);
  svg.push(`<text x="${gx}" y="${top + plotH + 6}" text-anchor="middle" fill="#555">${10 ** d}×</text>`);
}
let y = top;
for (const r of rows) {
  const ours = r.ours, mid = y + (r.bars.length * barH) / 2;
  svg.push(`<text x="${left - 8}" y="${mid - 1}" text-anchor="end">${esc(SHORT[r.id])}</text>`);
  svg.push(`<text x="${left - 8}" y="${mid + 12}" text-anchor="end" fill="#1f6feb">${esc(`ours ${ours < 10 ? ours.toFixed(2) : ours.toFixed(1)} ms`)}</text>`);
  for (const b of r.bars) {
    const color = LIBS.find(([l]) => l === b.lib)[2];
    const v = b.median / ours;
    svg.push(`<rect x="${x(10 ** minDecade)}" y="${y}" width="${Math.max(1, x(v) - x(10 ** minDecade))}" height="${barH - 2}" fill="${color}"${b.similar ? ' fill-opacity="0.4"' : ''}><title>${esc(`${b.lib}: ${(b.median).toFixed(2)} ms (${v.toFixed(2)}×)`)}</title></rect>`);
    svg.push(`<text x="${x(v) + 3}" y="${y + barH - 2}" font-size="9" fill="#555">${v < 10 ? v.toFixed(1) : Math.round(v)}</text>`);
    y += barH;
  }
  y += Math.max(0, 24 - r.bars.length * barH) + gap;
}
svg.push('</svg>');
writeFileSync(output, `${svg.join('\n')}\n`);
console.log(`wrote ${output}: ${rows.length} workloads from ${input} (${date})`);
