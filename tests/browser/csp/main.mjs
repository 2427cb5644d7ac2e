// main.mjs: the page of csp.test.mjs. Loads the package under test from /pkg/ as an app
// would, creates a sampler and runs a Resize and a GridSample; window.__csp resolves to
// { ok: results } or { error }.
window.__csp = (async () => {
  try {
    const { createSampler } = await import('/pkg/dist/browser.mjs');
    const sampler = await createSampler();
    const x = { type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([1, 2, 3, 4]) };
    const y = sampler.resize(x, { sizes: [1, 1, 4, 4], mode: 'linear' });
    // the grid's corners and centre of a 2x2 image, align_corners=1
    const grid = { type: 'float32', dims: [1, 1, 3, 2], data: new Float32Array([-1, -1, 1, 1, 0, 0]) };
    const g = sampler.gridSample(x, grid, { alignCorners: true });
    return { ok: { resize: { dims: y.dims, data: Array.from(y.data) }, gridSample: Array.from(g.data) } };
  } catch (e) {
    return { error: `${e.name}: ${e.message}` };
  }
})();
