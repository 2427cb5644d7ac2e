// bench/matrix-targets.mjs: issue 17's targets, read from the rows of one matrix run
// (bench/matrix.mjs). A pure function of the rows: each target names the jobs it compares,
// the worst ratio, the jobs over the aim, and whether it was met; a target whose jobs or
// peers this run did not have says "not measured" and why. Ratios come from medians of the
// same run, so they move with the machine's noise (README, Performance).

// rows: bench/matrix.mjs's rows ({ job, ours: { ms }, peers: [{ lib, job, ms, ratio }] }).
export function matrixTargets(rows) {
  const byName = new Map(rows.map((r) => [r.job.name, r]));
  const ms = (name) => { const r = byName.get(name); return r && Number.isFinite(r.ours.ms) ? r.ours.ms : NaN; };
  const out = [];
  // pairs: [job, ratio] of this target's comparisons (NaN ratios: a side that did not run)
  const target = (name, aim, pairs, missing) => {
    const done = pairs.filter(([, q]) => Number.isFinite(q));
    const t = { name, aim, jobs: done.length };
    if (done.length === 0) {
      t.met = null;
      t.why = pairs.length === 0 ? 'none of its jobs ran in this matrix (--only?)'
        : missing || 'the rows it compares them with did not run (--only?)';
    } else {
      const worst = done.reduce((a, b) => (b[1] > a[1] ? b : a));
      t.worst = { job: worst[0], ratio: worst[1] };
      t.over = done.filter(([, q]) => q > aim).map(([job, ratio]) => ({ job, ratio }));
      t.met = t.over.length === 0;
    }
    out.push(t);
  };
  const peerRatio = (r, lib) => {
    const p = r.peers.find((x) => x.lib === lib && x.job === 'same' && Number.isFinite(x.ratio));
    return p ? p.ratio : NaN;
  };
  const resizeRows = rows.filter((r) => r.job.op === 'resize');

  // Every float32 Resize workload at most 1.5x native OpenCV on the same job.
  const f32 = resizeRows.filter((r) => r.job.type === 'float32' && !r.job.antialias);
  target('float32 Resize <= 1.5x native OpenCV (same job)', 1.5, f32.map((r) => [r.job.name, peerRatio(r, 'opencv')]),
    'native OpenCV did not run (python3-opencv missing?)');
  // NHWC at most 1.2x our NCHW time for the same bytes.
  target('float32 NHWC <= 1.2x our NCHW (same bytes)', 1.2,
    f32.filter((r) => r.job.name.startsWith('f32 NHWC ')).map((r) => [r.job.name, r.ours.ms / ms(r.job.name.replace('f32 NHWC ', 'f32 NCHW '))]));
  // Types against float32, 1x3x512² -> 1024² linear and cubic.
  const typed = (types) => [].concat(...types.map((t) => ['linear', 'cubic'].map((m) => {
    const name = `${t} NCHW C=3 ${m} up 2x`;
    return [name, ms(name) / ms(`f32 NCHW C=3 ${m} up 2x`)];
  })));
  target('float16 and bfloat16 <= 1.5x float32', 1.5, typed(['float16', 'bfloat16']));
  target('float64, int32, int8, uint16 <= 3x float32', 3, typed(['float64', 'int32', 'int8', 'uint16']));
  // uint8 never slower than float32 for the same shape (planar 1080p antialias: the float32
  // row of the same mode and image).
  target('uint8 <= 1x float32 (same shape)', 1, typed(['uint8']).concat(['linear', 'cubic'].map((m) => {
    const name = `uint8 NCHW C=3 1080p ${m} antialias down 2x`;
    return [name, ms(name) / ms(`f32 NCHW C=3 1080p ${m} antialias down 2x`)];
  })));
  // uint8 RGBA/RGB antialias downscaling: at most 0.25x Pillow, and at most 1.5x the
  // float32 NCHW time of the same image (the matrix has float32 rows for the 2x scale).
  const aa = resizeRows.filter((r) => r.job.type === 'uint8' && r.job.antialias && r.job.layout === 'NHWC');
  target('uint8 RGBA/RGB antialias <= 0.25x Pillow', 0.25, aa.map((r) => {
    const p = r.peers.find((x) => x.lib === 'pillow' && Number.isFinite(x.ratio));
    return [r.job.name, p ? p.ratio : NaN];
  }), 'Pillow did not run (python3-pil missing?)');
  target('uint8 RGBA/RGB antialias <= 1.5x float32 NCHW (same image)', 1.5, aa.map((r) => {
    const c = r.job.in[3], f = `f32 NCHW C=${c} 1080p ${r.job.mode} antialias down ${r.job.name.split(' down ')[1]}`;
    return [r.job.name, r.ours.ms / ms(f)];
  }), 'no float32 NCHW row of the same image and scale, or it did not run (--only?)');
  // GridSample: nearest at most our linear; every mode at most 0.5x PyTorch.
  const gs = rows.filter((r) => r.job.op === 'grid');
  target('GridSample nearest <= our linear', 1, gs.filter((r) => r.job.mode === 'nearest')
    .map((r) => [r.job.name, r.ours.ms / ms(r.job.name.replace(' nearest ', ' linear '))]));
  target('GridSample <= 0.5x PyTorch', 0.5, gs.map((r) => [r.job.name, peerRatio(r, 'torch')]),
    'PyTorch did not run (python3-torch missing?)');
  return out;
}

// The targets as lines of text, for the matrix's output.
export function formatTargets(targets) {
  const f = (q) => `${q.toFixed(2)}x`;
  const lines = [];
  for (const t of targets) {
    if (t.met === null) {
      lines.push(`  ${t.name}: not measured (${t.why})`);
      continue;
    }
    lines.push(`  ${t.name}: ${t.met ? 'met' : 'MISSED'} (${t.jobs} job${t.jobs === 1 ? '' : 's'}, worst ${f(t.worst.ratio)}: ${t.worst.job})`);
    if (!t.met) lines.push(`    over ${t.aim}x: ${t.over.map((o) => `${o.job} ${f(o.ratio)}`).join('; ')}`);
  }
  return lines;
}
