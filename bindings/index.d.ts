// Type declarations of onnx-sampling-wasm, written by hand (emcc 3.1.6 cannot emit them)
// and checked by tests/ts/ with tsc (TypeScript 4.9 and later, --strict). The image helpers
// are declared in image.d.ts.

import type { ImageHelpers } from './image.js';
export type {
  ImageDataLike, ImageSource, ImageDataResult, ImageLayout, PixelNormalization,
  ImageToTensorOptions, TensorToImageDataOptions, ResizeImageOptions, ImageHelpers,
  ResizeCropOptions, ResizeCropTensor, LetterboxOptions, LetterboxResult, WarpImageOptions,
} from './image.js';

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

/** Any of the TypedArrays a tensor may carry. */
export type TensorData = TensorDataMap[TensorType];

/** A dense row-major tensor. An onnxruntime-web Tensor of these types satisfies it as is. */
export interface Tensor<T extends TensorType = TensorType> {
  readonly type: T;
  readonly dims: readonly number[];
  readonly data: TensorDataMap[T];
}

/**
 * What the sampler reads: a Tensor, or the same three fields where TypeScript widened `type`
 * to string (an object literal declared apart: `const x = { type: 'float32', ... }`). A
 * literal `type` is checked against `data` here; a widened one at run time (TypeError).
 */
export interface TensorLike {
  readonly type: TensorType | (string & {});
  readonly dims: readonly number[];
  readonly data: TensorData;
}

/** X itself when its `type` literal and its `data` agree (or `type` is a plain string). */
export type CheckedTensor<X extends TensorLike> =
  string extends X['type'] ? X
  : X['type'] extends TensorType ? X & { readonly type: X['type']; readonly data: TensorDataMap[X['type']] }
  : { readonly type: TensorType };

/** The element type a data array stands for, for tensors whose `type` is a plain string. */
export type TypeOfData<D> =
  D extends Float32Array ? 'float32' : D extends Float64Array ? 'float64'
  : D extends BigInt64Array ? 'int64' : D extends BigUint64Array ? 'uint64'
  : D extends Int8Array ? 'int8' : D extends Int16Array ? 'int16' : D extends Int32Array ? 'int32'
  : D extends Uint32Array ? 'uint32' : D extends Uint8ClampedArray ? 'uint8'
  : D extends Uint8Array ? 'uint8' | 'bool' : D extends Uint16Array ? 'uint16' | 'float16' | 'bfloat16'
  : TensorType;

/**
 * What the sampler returns: a plain object, accepted by `new ort.Tensor(t.type, t.data, t.dims)`.
 * `data` is a fresh array of the same kind as the input's (a Uint8Array for a Uint8Array X).
 */
export interface OutputTensor<T extends TensorType = TensorType, D extends TensorData = TensorDataMap[T]> {
  type: T;
  dims: number[];
  data: D;
}

/** The result of an operator on X: X's element type and kind of array. */
export type ResultOf<X extends TensorLike> = OutputTensor<
  string extends X['type'] ? TypeOfData<X['data']> : Extract<X['type'], TensorType>,
  X['data']>;

/**
 * Options as TypeScript may see them: a string-literal option may also be a plain string
 * (an object declared apart, `const o = { mode: 'linear' }`), checked at run time.
 */
export type LooseOptions<O> = { [K in keyof O]: O[K] extends infer V ? (V extends string ? V | (string & {}) : V) : never };
/**
 * The options O as checked: each of O's options must be one of Spec's, with a value Spec
 * allows (a plain string only where Spec takes strings), and Spec's required ones present.
 * O is inferred from the argument, so a wrong value is reported on itself ("did you mean").
 */
export type CheckedOptions<O, Spec> = {
  [K in keyof O]: K extends keyof Spec
    ? (string extends O[K] ? ([Extract<Spec[K], string>] extends [never] ? Spec[K] : O[K]) : Spec[K])
    : never;
} & { [K in RequiredKeysOf<Spec>]: unknown };
type RequiredKeysOf<S> = { [K in keyof S]-?: {} extends Pick<S, K> ? never : K }[keyof S];

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

/**
 * Another library's resize, reproduced bit for bit on uint8 (float32 within 1e-6 / 1e-5):
 * 'pillow' is PIL.Image.resize (Pillow 9.4), 'opencv' is cv2.resize (OpenCV 4.6). Resize
 * only (resize(), resizeInto(), a Resize node of run(), resizeImage()); uint8 and float32;
 * only the image's H and W change, with 1 to 4 channels after them. They run in
 * osw-compat.wasm, a second module: Node reads it on first use; elsewhere call
 * `await sampler.loadCompat()` first (the worker API does it by itself).
 */
export type CompatLibrary = 'pillow' | 'opencv';

/**
 * Filters of the compat libraries: nearest, linear (BILINEAR / INTER_LINEAR) and cubic
 * (BICUBIC / INTER_CUBIC) are each library's own; 'box', 'hamming', 'lanczos' are Pillow's,
 * 'area' and 'nearest_exact' OpenCV's (INTER_AREA, INTER_NEAREST_EXACT).
 */
export type CompatResizeMode = ResizeMode | 'box' | 'hamming' | 'lanczos' | 'area' | 'nearest_exact';

export type SamplerNode =
  | { opType: 'Resize'; opset: number; attributes?: ResizeAttributes; compat?: Compat | CompatLibrary }
  | { opType: 'Upsample'; opset: number; attributes?: UpsampleAttributes; compat?: Compat }
  | { opType: 'GridSample'; opset: number; attributes?: GridSampleAttributes; compat?: Compat }
  | AffineGridNode;

/** Options of sampler.resize: Resize at the latest opset (19), in camelCase. */
export interface ResizeOptions {
  /** Output lengths of every axis (or of `axes`). Exactly one of sizes and scales. */
  sizes?: ArrayLike<number | bigint>;
  /** Scale of every axis (or of `axes`); rounded to float32 as ONNX carries them. */
  scales?: ArrayLike<number>;
  axes?: ArrayLike<number>;
  /** [start_1..start_n, end_1..end_n]; only for tf_crop_and_resize (omitted: the full range [0, ..., 0, 1, ..., 1]). */
  roi?: ArrayLike<number>;
  mode?: ResizeMode | CompatResizeMode;
  coordinateTransformationMode?: Exclude<CoordinateTransformationMode, 'tf_half_pixel_for_nn'>;
  nearestMode?: NearestMode;
  cubicCoeffA?: number;
  excludeOutside?: boolean;
  extrapolationValue?: number;
  antialias?: boolean;
  keepAspectRatioPolicy?: KeepAspectRatioPolicy;
  /**
   * Default 'onnx'. 'pillow' / 'opencv': that library's resize (then only sizes or scales,
   * axes and mode may be given; mode defaults to the library's: 'cubic' for Pillow,
   * 'linear' for OpenCV, and may name its own filters).
   */
  compat?: Compat | CompatLibrary;
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
/** A grid of GridSample: float32, float64 or float16 (bits in a Uint16Array), whatever X is. */
export interface GridLike extends TensorLike {
  readonly type: 'float32' | 'float64' | 'float16' | (string & {});
  readonly data: Float32Array | Float64Array | Uint16Array;
}

export interface WasmTensor<T extends TensorType = TensorType> extends Tensor<T> {
  readonly type: T;
  readonly dims: readonly number[];
  readonly data: TensorDataMap[T];
  readonly size: number;
  readonly disposed: boolean;
  dispose(): void;
}

/** An input of run(): a tensor, or null / undefined for an omitted optional input. */
export type RunInput = TensorLike | null | undefined;

export interface Sampler extends ImageHelpers {
  /**
   * Runs one ONNX node with that opset's exact semantics. Inputs are positional as in the
   * node; null (or, from opset 11, an empty tensor) marks an omitted optional input. The
   * output has X's element type. Throws TypeError for a wrong kind of argument, RangeError
   * for a bad shape or value.
   */
  run<X extends TensorLike>(node: SamplerNode, inputs: readonly [X & CheckedTensor<X>, ...RunInput[]]): [ResultOf<X>];
  run(node: SamplerNode, inputs: readonly RunInput[]): OutputTensor[];
  resize<X extends TensorLike, O extends LooseOptions<ResizeOptions>>(x: X & CheckedTensor<X>, options: CheckedOptions<O, ResizeOptions>): ResultOf<X>;
  upsample<X extends TensorLike, O extends LooseOptions<UpsampleOptions>>(x: X & CheckedTensor<X>, options: CheckedOptions<O, UpsampleOptions>): ResultOf<X>;
  gridSample<X extends TensorLike, G extends GridLike, O extends LooseOptions<GridSampleOptions> = {}>(
    x: X & CheckedTensor<X>, grid: G & CheckedTensor<G>, options?: CheckedOptions<O, GridSampleOptions>): ResultOf<X>;

  /** Allocates a tensor in wasm memory (zero-copy tier). */
  tensor<T extends TensorType>(type: T, dims: ArrayLike<number>): WasmTensor<T>;
  /** run() writing its output into outputs[0] (a tensor of the right type and dims). */
  runInto<O extends TensorLike>(node: SamplerNode, inputs: readonly RunInput[], outputs: [O]): [O];
  resizeInto<X extends TensorLike, Y extends TensorLike, O extends LooseOptions<ResizeOptions>>(
    x: X & CheckedTensor<X>, output: Y & CheckedTensor<Y>, options: CheckedOptions<O, ResizeOptions>): Y;
  upsampleInto<X extends TensorLike, Y extends TensorLike, O extends LooseOptions<UpsampleOptions>>(
    x: X & CheckedTensor<X>, output: Y & CheckedTensor<Y>, options: CheckedOptions<O, UpsampleOptions>): Y;
  gridSampleInto<X extends TensorLike, G extends GridLike, Y extends TensorLike, O extends LooseOptions<GridSampleOptions> = {}>(
    x: X & CheckedTensor<X>, grid: G & CheckedTensor<G>, output: Y & CheckedTensor<Y>, options?: CheckedOptions<O, GridSampleOptions>): Y;

  /**
   * Frees this sampler's WebAssembly instance and its memory: after a large call, the only
   * way to give the memory back. Calls on a disposed sampler throw; createSampler() makes a
   * new one cheaply (the compiled module is kept). Calling it again does nothing.
   */
  dispose(): void;
  /** Bytes of WebAssembly memory this sampler's instance holds now (0 once disposed). */
  readonly memoryBytes: number;
  /**
   * How many threads this sampler's calls run on: what createSampler({ threads }) asked for
   * where shared memory exists (Node; a cross-origin isolated page or worker), else 1; 0 once
   * disposed. Small calls run on one thread whatever this says.
   */
  readonly threads: number;
  /**
   * Loads osw-compat.wasm, the module of the compat modes 'pillow' and 'opencv' (once per
   * program; each sampler makes its own instance). Options name the file as createSampler's
   * wasmUrl / wasmBinary name osw.wasm (default: beside the entry). Node needs no call.
   */
  loadCompat(options?: { wasmUrl?: string | { readonly href: string }; wasmBinary?: ArrayBuffer | ArrayBufferView | CompiledWasm }): Promise<void>;
}

/**
 * A compiled WebAssembly.Module (typed as an object, so that the declarations need neither
 * the DOM's lib nor Node's types).
 */
export type CompiledWasm = object;

export interface CreateSamplerOptions {
  /**
   * The bytes of osw.wasm, to skip fetching or reading it (e.g. a Node bundle that carries
   * the wasm itself), or the module compiled already: hosts that compile no wasm from bytes
   * (Cloudflare Workers, edge functions) import `onnx-sampling-wasm/osw.wasm` as a
   * WebAssembly.Module, which the package's workerd / edge-light entry passes by itself.
   */
  wasmBinary?: ArrayBuffer | ArrayBufferView | CompiledWasm;
  /**
   * Where osw.wasm is. Browsers: a URL to fetch (default: beside browser.mjs, as
   * `new URL('./osw.wasm', import.meta.url)`, which Vite and webpack follow). Node: a path,
   * a file: URL, or an http(s) URL (default: beside the package's entry).
   */
  wasmUrl?: string | { readonly href: string };
  /**
   * The most bytes one allocation of a call may take in wasm memory (an output, a copied
   * input, a plan or scratch); larger requests throw a RangeError stating the size, before
   * anything is allocated. Default 2 GiB.
   */
  maxBytes?: number;
  /**
   * How many threads a call may run on (a positive integer; default 1). More than 1 loads the
   * threaded build (osw-mt.wasm and, in browsers, osw-mt.mjs beside browser.mjs) with a pool of threads - 1 workers, where shared memory exists: Node, and
   * pages and workers that are cross-origin isolated (COOP same-origin, COEP require-corp).
   * Elsewhere, or with wasmUrl / wasmBinary (which name osw.wasm), the sampler runs on one
   * thread without an error: sampler.threads says which. At most 64 are used. When a file of
   * the threaded build is missing, or a worker of the pool cannot start (refused by a CSP
   * worker-src or by Node's permission model), createSampler rejects with an Error saying so.
   */
  threads?: number;
  /** Also load osw-compat.wasm (sampler.loadCompat(), with these options when an object). */
  loadCompat?: boolean | { wasmUrl?: string | { readonly href: string }; wasmBinary?: ArrayBuffer | ArrayBufferView | CompiledWasm };
}

/**
 * Returns a sampler. The first call fetches (or reads) and compiles osw.wasm; the compiled
 * module is kept, so later calls only instantiate it. A load that fails rejects with one
 * Error naming the URL or path, the reason and the fix; a later call may succeed.
 */
export function createSampler(options?: CreateSamplerOptions): Promise<Sampler>;

/** The element types a tensor may have. */
export const TENSOR_TYPES: readonly TensorType[];

// ------------------------------------------------------------------ AffineGrid-20
// Declared in one block (interface merging adds the method to Sampler; the node is one of
// SamplerNode's, so run() and runInto() take it).

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
  affineGrid<X extends GridLike, O extends LooseOptions<AffineGridOptions> = {}>(
    theta: X & CheckedTensor<X>, size: ArrayLike<number | bigint> | TensorLike,
    options?: CheckedOptions<O, AffineGridOptions>): ResultOf<X>;
}

// ------------------------------------------------------------------ the worker API
// createSampler({ worker: true }): the same operators, each returning a Promise, computed by
// a synchronous sampler in a dedicated worker (a module Worker in browsers, a worker_threads
// Worker in Node). Declared in one block (interface merging adds `worker` to the options).

import type {
  ImageSource, ImageToTensorOptions, TensorToImageDataOptions, ImageDataResult, ResizeImageOptions, ResizeCropOptions, ResizeCropTensor,
  LetterboxOptions, LetterboxResult, WarpImageOptions,
} from './image.js';

export interface CreateSamplerOptions {
  /** false (or absent): the synchronous Sampler. true: see WorkerSamplerOptions. */
  worker?: false;
}

export interface WorkerSamplerOptions extends Omit<CreateSamplerOptions, 'worker'> {
  /** Run every call in a dedicated worker; the methods return Promises. */
  worker: true;
  /**
   * Transfer the input arrays to the worker instead of copying them: an array that spans
   * its whole ArrayBuffer is detached (length 0) once the call is made. Views on part of a
   * buffer are copied anyway; SharedArrayBuffer-backed arrays are shared, never copied.
   * Default false (inputs are copied; the caller's arrays stay as they are).
   */
  transfer?: boolean;
  /**
   * The threads of the worker's sampler. Default: every core (os.availableParallelism(),
   * navigator.hardwareConcurrency), at most 8, where shared memory exists (Node, cross-origin
   * isolated pages); 1 elsewhere. The worker never blocks the caller, so only the pool's
   * start-up (inside createSampler) is paid for it.
   */
  threads?: number;
}

/**
 * A sampler whose operators run in a worker. Each method takes the arguments of the
 * synchronous Sampler's and resolves with what it returns (fresh arrays, transferred from the
 * worker), or rejects with the TypeError / RangeError it throws, with the same message.
 * Calls are answered in the order they were made. *Into methods write into the caller's
 * output when the call resolves, and resolve with it. There is no tensor() (wasm memory is
 * the worker's).
 */
export interface WorkerSampler {
  run<X extends TensorLike>(node: SamplerNode, inputs: readonly [X & CheckedTensor<X>, ...RunInput[]]): Promise<[ResultOf<X>]>;
  run(node: SamplerNode, inputs: readonly RunInput[]): Promise<OutputTensor[]>;
  runInto<O extends TensorLike>(node: SamplerNode, inputs: readonly RunInput[], outputs: [O]): Promise<[O]>;
  resize<X extends TensorLike, O extends LooseOptions<ResizeOptions>>(x: X & CheckedTensor<X>, options: CheckedOptions<O, ResizeOptions>): Promise<ResultOf<X>>;
  resizeInto<X extends TensorLike, Y extends TensorLike, O extends LooseOptions<ResizeOptions>>(
    x: X & CheckedTensor<X>, output: Y & CheckedTensor<Y>, options: CheckedOptions<O, ResizeOptions>): Promise<Y>;
  upsample<X extends TensorLike, O extends LooseOptions<UpsampleOptions>>(x: X & CheckedTensor<X>, options: CheckedOptions<O, UpsampleOptions>): Promise<ResultOf<X>>;
  upsampleInto<X extends TensorLike, Y extends TensorLike, O extends LooseOptions<UpsampleOptions>>(
    x: X & CheckedTensor<X>, output: Y & CheckedTensor<Y>, options: CheckedOptions<O, UpsampleOptions>): Promise<Y>;
  gridSample<X extends TensorLike, G extends GridLike, O extends LooseOptions<GridSampleOptions> = {}>(
    x: X & CheckedTensor<X>, grid: G & CheckedTensor<G>, options?: CheckedOptions<O, GridSampleOptions>): Promise<ResultOf<X>>;
  gridSampleInto<X extends TensorLike, G extends GridLike, Y extends TensorLike, O extends LooseOptions<GridSampleOptions> = {}>(
    x: X & CheckedTensor<X>, grid: G & CheckedTensor<G>, output: Y & CheckedTensor<Y>, options?: CheckedOptions<O, GridSampleOptions>): Promise<Y>;
  affineGrid<X extends GridLike, O extends LooseOptions<AffineGridOptions> = {}>(
    theta: X & CheckedTensor<X>, size: ArrayLike<number | bigint> | TensorLike,
    options?: CheckedOptions<O, AffineGridOptions>): Promise<ResultOf<X>>;
  /** The worker loads osw-compat.wasm by itself on the first compat call; this loads it now. */
  loadCompat(options?: { wasmUrl?: string | { readonly href: string }; wasmBinary?: ArrayBuffer | ArrayBufferView | CompiledWasm }): Promise<void>;
  imageToTensor(image: ImageSource | readonly ImageSource[], options: ImageToTensorOptions<'uint8'> & { type: 'uint8' }): Promise<OutputTensor<'uint8', Uint8Array>>;
  imageToTensor(image: ImageSource | readonly ImageSource[], options: ImageToTensorOptions<'float32'> & { type: 'float32' }): Promise<OutputTensor<'float32', Float32Array>>;
  imageToTensor(image: ImageSource | readonly ImageSource[], options: ImageToTensorOptions<never> & { layout: 'nhwc' }): Promise<OutputTensor<'uint8', Uint8Array>>;
  imageToTensor(image: ImageSource | readonly ImageSource[], options?: ImageToTensorOptions<never> & { layout?: 'nchw' }): Promise<OutputTensor<'float32', Float32Array>>;
  imageToTensor(image: ImageSource | readonly ImageSource[], options?: ImageToTensorOptions): Promise<OutputTensor<'float32', Float32Array> | OutputTensor<'uint8', Uint8Array>>;
  tensorToImageData(tensor: Tensor<'float32' | 'float64' | 'uint8'>, options?: TensorToImageDataOptions): Promise<ImageDataResult>;
  resizeCrop(image: ImageSource, options: ResizeCropOptions): Promise<ImageDataResult>;
  resizeCrop<X extends ResizeCropTensor>(x: X, options: ResizeCropOptions): Promise<OutputTensor<X['type']>>;
  letterbox(image: ImageSource, options: LetterboxOptions): Promise<LetterboxResult>;
  warpImage(image: ImageSource, matrix: readonly [readonly [number, number, number], readonly [number, number, number]] | ArrayLike<number>,
    options?: WarpImageOptions): Promise<ImageDataResult>;
  /** DOM images (<img>, <canvas>, <video>) and OffscreenCanvas are read on the caller's thread. */
  resizeImage(image: ImageSource, options: ResizeImageOptions): Promise<ImageDataResult>;

  /** How many threads the worker's sampler computes with (1 where shared memory is unavailable). */
  readonly threads: number;
  readonly worker: true;
  /** true once dispose() was called. */
  readonly disposed: boolean;
  /**
   * Terminates the worker and frees its memory. Calls in flight reject with an Error (their
   * results are lost); later calls reject as a disposed Sampler's throw. Calling it again does
   * nothing.
   */
  dispose(): void;
}

/** createSampler({ worker: true }) resolves to a WorkerSampler. */
export function createSampler(options: WorkerSamplerOptions): Promise<WorkerSampler>;
