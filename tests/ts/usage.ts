// usage.ts — owns the compile-time check of the public types (bindings/index.d.ts).
//
// Uses the whole API the way a user's strict TypeScript project would: createSampler, run
// for each operator, resize / upsample / gridSample with typed options, the generic
// output types. Lines marked `@ts-expect-error` must NOT compile; tsc reports an unused
// directive if one of them starts compiling, so the union types cannot silently widen.
// Never executed: `node_modules/.bin/tsc -p tests/ts` only type-checks it.

import {
  createSampler, TENSOR_TYPES,
  type Tensor, type OutputTensor, type TensorType, type Sampler, type SamplerNode,
  type ResizeOptions, type UpsampleOptions, type GridSampleOptions, type ResizeAttributes,
  type CoordinateTransformationMode, type NearestMode, type ResizeMode,
} from 'onnx-sampling-wasm';

export async function main(wasmBytes: Uint8Array): Promise<number> {
  const sampler: Sampler = await createSampler({ wasmBinary: wasmBytes });
  await createSampler();
  await createSampler({ wasmUrl: new URL('https://example.com/osw.wasm') });
  await createSampler({ wasmUrl: '/osw.wasm' });

  const types: readonly TensorType[] = TENSOR_TYPES;

  const x: Tensor<'float32'> = { type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array([1, 2, 3, 4]) };
  const xd: Tensor<'float64'> = { type: 'float64', dims: [2, 3], data: new Float64Array(6) };
  const xu8: Tensor<'uint8'> = { type: 'uint8', dims: [4], data: new Uint8ClampedArray(4) };
  const xi64: Tensor<'int64'> = { type: 'int64', dims: [2], data: new BigInt64Array([1n, 2n]) };
  const scales: Tensor = { type: 'float32', dims: [4], data: new Float32Array([1, 1, 2, 2]) };
  const sizes: Tensor = { type: 'int64', dims: [4], data: new BigInt64Array([1n, 1n, 3n, 3n]) };
  const roi: Tensor<'float64'> = { type: 'float64', dims: [8], data: new Float64Array([0, 0, 0, 0, 1, 1, 1, 1]) };
  const grid: Tensor<'float32'> = { type: 'float32', dims: [1, 2, 2, 2], data: new Float32Array(8) };

  // ---------------------------------------------------------------- run
  const attributes: ResizeAttributes = {
    mode: 'cubic', coordinate_transformation_mode: 'half_pixel_symmetric', nearest_mode: 'floor',
    cubic_coeff_a: -0.5, exclude_outside: 1, extrapolation_value: 0, antialias: 1, axes: [2, 3],
    keep_aspect_ratio_policy: 'not_larger',
  };
  const r1: OutputTensor[] = sampler.run({ opType: 'Resize', opset: 19, attributes }, [x, null, null, sizes]);
  const r2 = sampler.run({ opType: 'Resize', opset: 13, attributes: { mode: 'linear' } }, [x, roi, scales]);
  const r3 = sampler.run({ opType: 'Resize', opset: 11, attributes: { coordinate_transformation_mode: 'tf_half_pixel_for_nn' } }, [x, undefined, scales]);
  const r4 = sampler.run({ opType: 'Upsample', opset: 7, attributes: { mode: 'linear', scales: [1, 1, 2, 2] } }, [x]);
  const r5 = sampler.run({ opType: 'Upsample', opset: 9 }, [x, scales]);
  const r6 = sampler.run({ opType: 'GridSample', opset: 16, attributes: { mode: 'bicubic', padding_mode: 'border', align_corners: 1 } }, [x, grid]);
  const r7 = sampler.run({ opType: 'GridSample', opset: 22, attributes: { mode: 'cubic', padding_mode: 'reflection' } }, [x, grid]);
  const node: SamplerNode = { opType: 'Resize', opset: 18 };
  const r8 = sampler.run(node, [xd, null, scales]);
  const first: OutputTensor | undefined = r1[0];
  const dims: number[] = first ? first.dims : [];

  // ---------------------------------------------------------------- friendly API
  const mode: ResizeMode = 'linear';
  const coord: CoordinateTransformationMode = 'align_corners';
  const nearest: NearestMode = 'round_prefer_ceil';
  const opts: ResizeOptions = {
    sizes: [1, 1, 4, 4], axes: [0, 1, 2, 3], mode, coordinateTransformationMode: coord,
    nearestMode: nearest, cubicCoeffA: -0.75, excludeOutside: false, extrapolationValue: 0,
    antialias: true, keepAspectRatioPolicy: 'stretch',
  };
  const y: OutputTensor<'float32'> = sampler.resize(x, opts);
  const yData: Float32Array = y.data; // the output keeps X's element type
  const y64 = sampler.resize(xd, { scales: new Float32Array([0.5, 2]), mode: 'cubic' });
  const y64Data: Float64Array = y64.data;
  const yBig = sampler.resize(xi64, { sizes: new BigInt64Array([4n]) });
  const yBigData: BigInt64Array = yBig.data;
  const yCrop = sampler.resize(x, { scales: [1, 1, 2, 2], coordinateTransformationMode: 'tf_crop_and_resize', roi: [0, 0, 0.1, 0.1, 1, 1, 0.9, 0.9], extrapolationValue: -1 });
  const yU8 = sampler.resize(xu8, { sizes: [8n] });

  const up: UpsampleOptions = { scales: [1, 1, 2, 3], mode: 'nearest' };
  const u: OutputTensor<'float32'> = sampler.upsample(x, up);
  const u2 = sampler.upsample(xd, { scales: new Float32Array([2, 2]) });

  const gopts: GridSampleOptions = { mode: 'nearest', paddingMode: 'zeros', alignCorners: true };
  const g: OutputTensor<'float32'> = sampler.gridSample(x, grid, gopts);
  const g2 = sampler.gridSample(xd, { type: 'float64', dims: [1, 1, 1, 2], data: new Float64Array(2) });
  const g3 = sampler.gridSample(x, grid);

  // AffineGrid: the grid has theta's type, for gridSample
  const theta = { type: 'float32' as const, dims: [1, 2, 3], data: new Float32Array([1, 0, 0, 0, 1, 0]) };
  const ag: OutputTensor<'float32'> = sampler.affineGrid(theta, [1, 1, 2, 2], { alignCorners: true });
  const ag64 = sampler.affineGrid({ type: 'float64', dims: [1, 3, 4], data: new Float64Array(12) }, [1n, 1n, 2n, 2n, 2n]);
  const ag64Data: Float64Array = ag64.data;
  const [agRun] = sampler.run({ opType: 'AffineGrid', opset: 20, attributes: { align_corners: 1 } },
    [theta, { type: 'int64', dims: [4], data: new BigInt64Array([1n, 1n, 2n, 2n]) }]);
  const agRunData: Float32Array = agRun.data;
  const warped = sampler.gridSample(x, ag, { alignCorners: true });

  // ---------------------------------------------------------------- declared apart (widened)
  // An object literal declared apart has `type: string`; the result is typed by its data.
  const wx = { type: 'float32', dims: [1, 1, 2, 2], data: new Float32Array(4) };
  const wy = sampler.resize(wx, { scales: [1, 1, 2, 2] });
  const wyData: Float32Array = wy.data;
  const wyType: 'float32' = wy.type;
  const wopts = { sizes: [1, 1, 4, 4], mode: 'linear', coordinateTransformationMode: 'align_corners', antialias: true };
  const wy2: OutputTensor<'float32'> = sampler.resize(x, wopts);
  const wup = { scales: [1, 1, 2, 2], mode: 'nearest' };
  sampler.upsample(wx, wup);
  const wg = { mode: 'cubic', paddingMode: 'border', alignCorners: false };
  const wgrid = { type: 'float32', dims: [1, 2, 2, 2], data: new Float32Array(8) };
  sampler.gridSample(wx, wgrid, wg);
  // uint8 results keep the input's kind of array (onnxruntime-web wants a Uint8Array).
  const u8: Uint8Array = sampler.resize({ type: 'uint8', dims: [4], data: new Uint8Array(4) }, { sizes: [8] }).data;
  const u8c: Uint8ClampedArray = sampler.resize({ type: 'uint8', dims: [4], data: new Uint8ClampedArray(4) }, { sizes: [8] }).data;
  // run() is typed by X, for inputs written inline and for an input list built apart
  const [rx] = sampler.run({ opType: 'Resize', opset: 19, attributes: { mode: 'linear' } }, [xd, null, scales]);
  const rxData: Float64Array = rx.data;
  const inputs = [x, null, scales];
  const rAny: OutputTensor[] = sampler.run({ opType: 'Resize', opset: 13 }, inputs);
  // image helpers: NCHW without `type` is float32, NHWC uint8 (a Uint8Array)
  const img = { width: 2, height: 2, data: new Uint8ClampedArray(16) };
  const nchw: Float32Array = sampler.imageToTensor(img).data;
  const nchwNorm: Float32Array = sampler.imageToTensor(img, { layout: 'nchw', scale: 1 / 255, mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5] }).data;
  const nhwc: Uint8Array = sampler.imageToTensor(img, { layout: 'nhwc', channels: 4 }).data;
  const nhwcF: Float32Array = sampler.imageToTensor(img, { layout: 'nhwc', type: 'float32' }).data;
  // memory
  const held: number = sampler.memoryBytes;
  sampler.dispose();
  await createSampler({ maxBytes: 1 << 20, wasmUrl: 'osw.wasm' });
  await createSampler({ wasmBinary: new ArrayBuffer(8) });

  // ---------------------------------------------------------------- must not compile

  // @ts-expect-error: a literal type must agree with the data
  sampler.resize({ type: 'float64', dims: [2], data: new Float32Array(2) }, { sizes: [4] });
  // @ts-expect-error: a value declared apart must still be a string where a string belongs
  sampler.resize(x, { sizes: [1, 1, 4, 4], antialias: wopts.mode });
  // @ts-expect-error: an unknown option declared apart
  sampler.resize(x, { ...wopts, cubic_coeff_a: -0.5 });
  // @ts-expect-error: memoryBytes is read-only
  sampler.memoryBytes = 0;
  // @ts-expect-error: unknown createSampler option
  await createSampler({ wasmURL: 'osw.wasm' });
  // @ts-expect-error: imageToTensor without type on NHWC is uint8, not float32
  const notF32: Float32Array = sampler.imageToTensor(img, { layout: 'nhwc' }).data;

  // @ts-expect-error: 'bilinear' is not a Resize mode
  sampler.resize(x, { scales: [1, 1, 2, 2], mode: 'bilinear' });
  // @ts-expect-error: 'tf_half_pixel_for_nn' does not exist at opset 19 (sampler.resize)
  sampler.resize(x, { scales: [1, 1, 2, 2], coordinateTransformationMode: 'tf_half_pixel_for_nn' });
  // @ts-expect-error: unknown nearest_mode
  sampler.run({ opType: 'Resize', opset: 19, attributes: { nearest_mode: 'round' } }, [x, null, scales]);
  // @ts-expect-error: opType is required
  sampler.run({ opset: 19, attributes: { mode: 'linear' } }, [x, null, scales]);
  // @ts-expect-error: unknown operator
  sampler.run({ opType: 'Resize2', opset: 19 }, [x]);
  // @ts-expect-error: a number where a tensor is expected
  sampler.resize(42, { scales: [2] });
  // @ts-expect-error: a number where a tensor is expected (inputs of run)
  sampler.run({ opType: 'Upsample', opset: 9 }, [x, 2]);
  // @ts-expect-error: a bare TypedArray is not a tensor
  sampler.gridSample(x, new Float32Array(8));
  // @ts-expect-error: a float32 tensor carries a Float32Array, not a Float64Array
  const bad: Tensor<'float32'> = { type: 'float32', dims: [2], data: new Float64Array(2) };
  // @ts-expect-error: the grid must be float32 or float64
  sampler.gridSample(x, xi64);
  // @ts-expect-error: gridSample() takes the opset-20 mode names
  sampler.gridSample(x, grid, { mode: 'bilinear' });
  // @ts-expect-error: GridSample has no padding mode 'reflect'
  sampler.run({ opType: 'GridSample', opset: 20, attributes: { padding_mode: 'reflect' } }, [x, grid]);
  // @ts-expect-error: AffineGrid's align_corners is 0 or 1
  sampler.run({ opType: 'AffineGrid', opset: 20, attributes: { align_corners: true } }, [theta, xi64]);
  // @ts-expect-error: affineGrid() takes alignCorners, not align_corners
  sampler.affineGrid(theta, [1, 1, 2, 2], { align_corners: 1 });
  // @ts-expect-error: theta is float32, float64 or float16
  sampler.affineGrid(xi64, [1, 1, 2, 2]);
  // @ts-expect-error: exclude_outside is 0 or 1
  sampler.run({ opType: 'Resize', opset: 19, attributes: { exclude_outside: 2 } }, [x, null, scales]);
  // @ts-expect-error: options use camelCase in sampler.resize
  sampler.resize(x, { scales: [2], cubic_coeff_a: -0.5 });
  // @ts-expect-error: upsample needs scales
  sampler.upsample(x, { mode: 'linear' });
  // @ts-expect-error: Upsample has no cubic mode
  sampler.upsample(x, { scales: [2], mode: 'cubic' });
  // @ts-expect-error: resize output of a float32 tensor is not float64
  const wrongOut: OutputTensor<'float64'> = sampler.resize(x, { scales: [1, 1, 2, 2] });
  const u8img = { type: 'uint8', dims: [1, 8, 16, 4], data: new Uint8Array(512) } as const;
  // @ts-expect-error: the returned dims are numbers
  const wrongDims: string[] = y.dims;
  // compat 'pillow' / 'opencv': another library's resize, with its own filters
  await sampler.loadCompat();
  const pil = sampler.resize(u8img, { sizes: [4, 8], axes: [1, 2], compat: 'pillow', mode: 'lanczos' });
  const cv: Uint8Array = sampler.resize(u8img, { scales: [0.5, 0.5], axes: [1, 2], compat: 'opencv', mode: 'area' }).data;
  const viaImage = sampler.resizeImage({ width: 2, height: 2, data: new Uint8ClampedArray(16) }, { width: 1, compat: 'opencv', mode: 'nearest_exact' });
  // preprocessing helpers
  const gray = sampler.imageToTensor([{ width: 2, height: 1, data: new Uint8Array(6) }], { channels: 1, order: 'bgr' });
  const crop = sampler.resizeCrop({ width: 4, height: 4, data: new Uint8ClampedArray(64) }, { size: 3, crop: [2, 2] });
  const cropT: Float32Array = sampler.resizeCrop({ type: 'float32', dims: [3, 4, 4], data: new Float32Array(48) }, { size: 3, crop: 2 }).data;
  const lb = sampler.letterbox({ width: 4, height: 2, data: new Uint8ClampedArray(32) }, { width: 8, height: 8, fill: 114 });
  const lbScale: number = lb.scale + lb.left + lb.top + lb.image.width;
  const warped2 = sampler.warpImage({ width: 4, height: 2, data: new Uint8ClampedArray(32) }, [[0, 1, 0], [-1, 0, 3]], { width: 2, height: 4, mode: 'nearest' });
  // @ts-expect-error: channels 2 is not a pixel format
  sampler.imageToTensor({ width: 2, height: 1, data: new Uint8Array(6) }, { channels: 2 });
  // @ts-expect-error: compat libraries are 'pillow' and 'opencv'
  sampler.resize(u8img, { sizes: [4, 8], axes: [1, 2], compat: 'pil' });
  // @ts-expect-error: there is no 'lanczos4' filter
  sampler.resize(u8img, { sizes: [4, 8], axes: [1, 2], compat: 'pillow', mode: 'lanczos4' });

  return types.length + r2.length + r3.length + r4.length + r5.length + r6.length + r7.length + r8.length +
    dims.length + yData.length + y64Data.length + yBigData.length + yCrop.data.length + yU8.data.length +
    u.data.length + u2.data.length + g.data.length + g2.data.length + g3.data.length +
    bad.dims.length + wrongOut.dims.length + wrongDims.length + wyData.length + wyType.length + wy2.data.length +
    u8.length + u8c.length + rxData.length + rAny.length + nchw.length + nchwNorm.length + nhwc.length + nhwcF.length +
    held + notF32.length + ag.data.length + ag64Data.length + agRunData.length + warped.data.length +
    pil.data.length + cv.length + viaImage.width + gray.data.length + crop.width + cropT.length + lbScale + warped2.height;
}
