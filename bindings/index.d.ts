// Type declarations of onnx-sampling-wasm, written by hand (emcc 3.1.6 cannot emit them)
// and checked by tests/ts/ with tsc. The image helpers are declared in image.d.ts.

import type { ImageHelpers } from './image.js';
export type * from './image.js';

/** Element type names, as onnxruntime-web's Tensor spells them. */
export type TensorType =
  | 'float32' | 'float64' | 'float16' | 'bfloat16'
  | 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'int64' | 'uint64'
  | 'bool';

/** The TypedArray that carries each element type. */
export interface TensorDataMap {
  float32: Float32Array;
  float64: Float64Array;
  float16: Uint16Array;
  bfloat16: Uint16Array;
  int8: Int8Array;
  uint8: Uint8Array | Uint8ClampedArray;
  int16: Int16Array;
  uint16: Uint16Array;
  int32: Int32Array;
  uint32: Uint32Array;
  int64: BigInt64Array;
  uint64: BigUint64Array;
  bool: Uint8Array;
}

/** A dense row-major tensor. An onnxruntime-web Tensor satisfies this interface as is. */
export interface Tensor<T extends TensorType = TensorType> {
  readonly type: T;
  readonly dims: readonly number[];
  readonly data: TensorDataMap[T];
}

/** What the sampler returns: a plain object, accepted by `new ort.Tensor(t.type, t.data, t.dims)`. */
export interface OutputTensor<T extends TensorType = TensorType> {
  type: T;
  dims: number[];
  data: TensorDataMap[T];
}

export type ResizeMode = 'nearest' | 'linear' | 'cubic';
export type CoordinateTransformationMode =
  | 'half_pixel' | 'half_pixel_symmetric' | 'pytorch_half_pixel' | 'align_corners'
  | 'asymmetric' | 'tf_half_pixel_for_nn' | 'tf_crop_and_resize';
export type NearestMode = 'round_prefer_floor' | 'round_prefer_ceil' | 'floor' | 'ceil';
export type KeepAspectRatioPolicy = 'stretch' | 'not_larger' | 'not_smaller';
export type GridSampleMode = 'linear' | 'nearest' | 'cubic';
export type GridSampleModeOpset16 = 'bilinear' | 'nearest' | 'bicubic';
export type PaddingMode = 'zeros' | 'border' | 'reflection';

/** ONNX attributes of a Resize node (which ones exist depends on the opset). */
export interface ResizeAttributes {
  mode?: ResizeMode;
  coordinate_transformation_mode?: CoordinateTransformationMode;
  nearest_mode?: NearestMode;
  cubic_coeff_a?: number;
  exclude_outside?: 0 | 1;
  extrapolation_value?: number;
  antialias?: 0 | 1;
  axes?: readonly number[];
  keep_aspect_ratio_policy?: KeepAspectRatioPolicy;
}

export interface UpsampleAttributes {
  mode?: 'nearest' | 'linear';
  /** Upsample-7 only: scales as an attribute. */
  scales?: readonly number[];
}

export interface GridSampleAttributes {
  mode?: GridSampleMode | GridSampleModeOpset16;
  padding_mode?: PaddingMode;
  align_corners?: 0 | 1;
}

/**
 * Which runtime to reproduce where the ONNX decision table differs (docs/semantics.md):
 * 'onnx' (default), 'onnxruntime' (ONNX Runtime 1.30's float32 coordinates, integer-length
 * align_corners, truncating integer outputs, copies of unchanged axes, extrapolation_value
 * casts), 'pytorch' (PyTorch's antialias filters and round-half-up integer outputs).
 * GridSample: only the rounding of integer outputs changes (row 7).
 */
export type Compat = 'onnx' | 'onnxruntime' | 'pytorch';

export type SamplerNode =
  | { opType: 'Resize'; opset: number; attributes?: ResizeAttributes; compat?: Compat }
  | { opType: 'Upsample'; opset: number; attributes?: UpsampleAttributes; compat?: Compat }
  | { opType: 'GridSample'; opset: number; attributes?: GridSampleAttributes; compat?: Compat };

/** Options of sampler.resize: Resize at the latest opset (19), in camelCase. */
export interface ResizeOptions {
  /** Output lengths of every axis (or of `axes`). Exactly one of sizes and scales. */
  sizes?: ArrayLike<number | bigint>;
  /** Scale of every axis (or of `axes`); rounded to float32 as ONNX carries them. */
  scales?: ArrayLike<number>;
  axes?: ArrayLike<number>;
  /** [start_1..start_n, end_1..end_n]; only for tf_crop_and_resize. */
  roi?: ArrayLike<number>;
  mode?: ResizeMode;
  coordinateTransformationMode?: Exclude<CoordinateTransformationMode, 'tf_half_pixel_for_nn'>;
  nearestMode?: NearestMode;
  cubicCoeffA?: number;
  excludeOutside?: boolean;
  extrapolationValue?: number;
  antialias?: boolean;
  keepAspectRatioPolicy?: KeepAspectRatioPolicy;
  /** Default 'onnx'. */
  compat?: Compat;
}

export interface UpsampleOptions {
  scales: ArrayLike<number>;
  mode?: 'nearest' | 'linear';
  compat?: Compat;
}

export interface GridSampleOptions {
  mode?: GridSampleMode;
  paddingMode?: PaddingMode;
  alignCorners?: boolean;
  compat?: Compat;
}

/**
 * A tensor whose data lives in the sampler's WebAssembly memory (zero-copy tier). Pass it
 * as an input or as the output of an `*Into` call and no copy is made. `data` is a view
 * created afresh on every access: do not keep it across calls (memory may grow, which
 * detaches old views). Free it with `dispose()`.
 */
export interface WasmTensor<T extends TensorType = TensorType> extends Tensor<T> {
  readonly type: T;
  readonly dims: readonly number[];
  readonly data: TensorDataMap[T];
  readonly size: number;
  readonly disposed: boolean;
  dispose(): void;
}

export interface Sampler extends ImageHelpers {
  /**
   * Runs one ONNX node with that opset's exact semantics. Inputs are positional as in the
   * node; null (or, from opset 11, an empty tensor) marks an omitted optional input.
   * Throws TypeError for a wrong kind of argument, RangeError for a bad shape or value.
   */
  run(node: SamplerNode, inputs: ReadonlyArray<Tensor | null | undefined>): OutputTensor[];
  resize<T extends TensorType>(x: Tensor<T>, options: ResizeOptions): OutputTensor<T>;
  upsample<T extends TensorType>(x: Tensor<T>, options: UpsampleOptions): OutputTensor<T>;
  gridSample<T extends TensorType>(x: Tensor<T>, grid: Tensor<'float32' | 'float64' | 'float16'>, options?: GridSampleOptions): OutputTensor<T>;

  /** Allocates a tensor in wasm memory (zero-copy tier). */
  tensor<T extends TensorType>(type: T, dims: ArrayLike<number>): WasmTensor<T>;
  /** run() writing its output into outputs[0] (a tensor of the right type and dims). */
  runInto<O extends Tensor>(node: SamplerNode, inputs: ReadonlyArray<Tensor | null | undefined>, outputs: [O]): [O];
  resizeInto<T extends TensorType, O extends Tensor<T>>(x: Tensor<T>, output: O, options: ResizeOptions): O;
  upsampleInto<T extends TensorType, O extends Tensor<T>>(x: Tensor<T>, output: O, options: UpsampleOptions): O;
  gridSampleInto<T extends TensorType, O extends Tensor<T>>(x: Tensor<T>, grid: Tensor<'float32' | 'float64' | 'float16'>, output: O, options?: GridSampleOptions): O;
}

export interface CreateSamplerOptions {
  /** The .wasm bytes, to skip loading them (any environment). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Browser only: where to fetch osw-web.wasm from. */
  wasmUrl?: string | { readonly href: string };
  /**
   * The most bytes one allocation of a call may take in wasm memory (an output, a copied
   * input, a plan or scratch); larger requests throw a RangeError stating the size, before
   * anything is allocated. Default 2 GiB.
   */
  maxBytes?: number;
}

/** Loads the WebAssembly module (once per page or process) and returns a sampler. */
export function createSampler(options?: CreateSamplerOptions): Promise<Sampler>;

/** The element types a tensor may have. */
export const TENSOR_TYPES: readonly TensorType[];

// ------------------------------------------------------------------ AffineGrid-20
// Declared in one block (interface merging adds the overloads to Sampler).

/** ONNX attributes of an AffineGrid node (opset 20). */
export interface AffineGridAttributes {
  align_corners?: 0 | 1;
}

export type AffineGridNode = { opType: 'AffineGrid'; opset: number; attributes?: AffineGridAttributes; compat?: Compat };

/** Options of sampler.affineGrid: AffineGrid-20 in camelCase. */
export interface AffineGridOptions {
  /** -1 and 1 are the centres of the corner pixels (true) or their outer edges (false, default). */
  alignCorners?: boolean;
}

export type AffineGridType = 'float32' | 'float64' | 'float16';

export interface Sampler {
  /**
   * AffineGrid: theta (N, 2, 3) or (N, 3, 4) and size [N, C, H, W] or [N, C, D, H, W] (an
   * array of integers or an int64 tensor) give the sampling grid (N, H, W, 2) or
   * (N, D, H, W, 3) of theta's type, for gridSample with the same alignCorners.
   */
  affineGrid<T extends AffineGridType>(theta: Tensor<T>, size: ArrayLike<number | bigint> | Tensor<'int64'>, options?: AffineGridOptions): OutputTensor<T>;
  run(node: AffineGridNode, inputs: ReadonlyArray<Tensor | null | undefined>): OutputTensor[];
  runInto<O extends Tensor>(node: AffineGridNode, inputs: ReadonlyArray<Tensor | null | undefined>, outputs: [O]): [O];
}
