// Declarations of the image helpers (bindings/image.js); index.d.ts makes Sampler extend
// ImageHelpers. They compile with and without the DOM lib: the browser-only types are
// looked up on globalThis.

import type { Tensor, OutputTensor, ResizeMode, CoordinateTransformationMode, NearestMode, CompatResizeMode, CompatLibrary } from './index.js';

/**
 * RGBA bytes, row-major, 4 per pixel (what ImageData holds, and what Node gets back), or RGB,
 * 3 per pixel (as sharp's raw output and most decoders give; told apart by the length).
 */
export interface ImageDataLike {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8ClampedArray | Uint8Array;
  readonly colorSpace?: string;
}

/** `T` of a DOM class when the DOM lib is loaded, `never` otherwise. */
type DomClass<Name extends string> =
  typeof globalThis extends { [K in Name]: { prototype: infer T } } ? T : never;

/** What the image helpers read: ImageData(-like) everywhere; in browsers also DOM images. */
export type ImageSource =
  | ImageDataLike
  | DomClass<'ImageData'>
  | DomClass<'ImageBitmap'>
  | DomClass<'HTMLCanvasElement'>
  | DomClass<'OffscreenCanvas'>
  | DomClass<'HTMLImageElement'>
  | DomClass<'SVGImageElement'>
  | DomClass<'HTMLVideoElement'>
  | DomClass<'VideoFrame'>;

/** What the helpers return: an ImageData in browsers and workers; a plain object in Node. */
export type ImageDataResult = [DomClass<'ImageData'>] extends [never]
  ? { width: number; height: number; data: Uint8ClampedArray; colorSpace: string }
  : DomClass<'ImageData'>;

export type ImageLayout = 'nchw' | 'nhwc';

/** Model preprocessing: tensor value = (pixel * scale - mean[c]) / std[c], pixel in 0..255. */
export interface PixelNormalization {
  /** Multiplies the 0..255 pixel first, e.g. 1 / 255. Default 1. Not 0. */
  scale?: number;
  /** One value per channel (with 4 channels, 3 values leave alpha unnormalised). Default 0. */
  mean?: ArrayLike<number>;
  /** One value per channel, none 0. Default 1. */
  std?: ArrayLike<number>;
}

export interface ImageToTensorOptions<T extends 'float32' | 'uint8' = 'float32' | 'uint8'> extends PixelNormalization {
  /** (1, C, H, W) or (1, H, W, C). Default 'nchw'. */
  layout?: ImageLayout;
  /** Default 'float32' for 'nchw', 'uint8' for 'nhwc'. uint8 takes no mean / std / scale. */
  type?: T;
  /** 3: RGB (alpha dropped), 4: RGBA, 1: gray (Pillow's convert('L')). Default 3. */
  channels?: 1 | 3 | 4;
  /** 'bgr': B, G, R (and A) instead of R, G, B (OpenCV's order). Default 'rgb'. */
  order?: 'rgb' | 'bgr';
  /** Multiply R, G, B by alpha / 255 before normalising. Default false. */
  premultiply?: boolean;
}

/** What resizeCrop takes: torchvision's transforms.Resize(size) + CenterCrop(crop). */
export interface ResizeCropOptions {
  /** The shorter side's length after resizing (the longer: int(size * long / short)). */
  size: number;
  /** The centre crop, [height, width] or one number; default size. Padded with 0 where larger. */
  crop?: number | readonly [number, number];
  /** Default 'linear' (torchvision's BILINEAR). */
  mode?: ResizeMode | CompatResizeMode;
}

/** What letterbox takes: Ultralytics' LetterBox (YOLO preprocessing). */
export interface LetterboxOptions {
  width: number;
  height: number;
  /** The padding's value (every colour channel; alpha 255). Default 114. */
  fill?: number;
  /** cv2.resize's interpolation (compat 'opencv'). Default 'linear'. */
  mode?: ResizeMode | CompatResizeMode;
}

export interface LetterboxResult {
  image: ImageDataResult;
  /** The resize factor: a point (x, y) of the input is at (x * scale + left, y * scale + top). */
  scale: number;
  left: number;
  top: number;
}

/** What warpImage takes: cv2.warpAffine's output size, interpolation and border. */
export interface WarpImageOptions {
  /** The output size; default the input's. */
  width?: number;
  height?: number;
  /** Default 'linear' (premultiplied, so transparent pixels do not bleed). */
  mode?: 'nearest' | 'linear' | 'cubic';
  /** Default 'zeros' (transparent black), as gridSample. */
  paddingMode?: 'zeros' | 'border' | 'reflection';
  /** The matrix maps output pixels to input pixels (cv2.WARP_INVERSE_MAP). Default false. */
  inverse?: boolean;
}

/** A tensor that resizeCrop takes as torchvision takes a tensor: (C, H, W) or (N, C, H, W). */
export type ResizeCropTensor = Tensor<'float32' | 'uint8'>;

export interface TensorToImageDataOptions extends PixelNormalization {
  /** Layout of the tensor: (1,) C, H, W or (1,) H, W, C with C = 1, 3 or 4. Default 'nchw'. */
  layout?: ImageLayout;
  /** The tensor holds premultiplied RGBA: divide R, G, B by alpha. Default false. */
  premultiply?: boolean;
}

export interface ResizeImageOptions {
  /** Output width; give width, height or both (one alone keeps the aspect ratio). */
  width?: number;
  /** Output height. */
  height?: number;
  /**
   * Instead of width / height: a scale factor, or [scaleY, scaleX]. Passed to resize() as
   * ONNX scales (the output is floor(length * scale), coordinates follow the scale).
   */
  scale?: number | readonly [number, number];
  /** Default 'linear' (with compat: the library's default, 'cubic' for Pillow, 'linear' for OpenCV). */
  mode?: ResizeMode | CompatResizeMode;
  /**
   * Resize the RGBA bytes as PIL.Image.resize ('pillow': premultiplied in 8 bits, as Pillow
   * does RGBA) or cv2.resize ('opencv': four independent channels) does, bit for bit; then
   * antialias, premultiply, linearLight and the resize() options must not be given.
   */
  compat?: CompatLibrary;
  /** Widen the filter when shrinking (linear and cubic). Default true, unlike resize(). */
  antialias?: boolean;
  /** Filter premultiplied colours so transparent pixels do not bleed. Default true. */
  premultiply?: boolean;
  /** Filter in linear light (sRGB decoded, re-encoded after). Default false. */
  linearLight?: boolean;
  /** As in resize(). Default 'half_pixel'. */
  coordinateTransformationMode?: Exclude<CoordinateTransformationMode, 'tf_half_pixel_for_nn' | 'tf_crop_and_resize'>;
  /** As in resize(). Default -0.75. */
  cubicCoeffA?: number;
  /** As in resize(). Default false. */
  excludeOutside?: boolean;
  /** As in resize(). Default 'round_prefer_floor'. */
  nearestMode?: NearestMode;
}

/** The image helpers of a Sampler. */
export interface ImageHelpers {
  /**
   * Reads an image's RGBA pixels into a tensor: (1, C, H, W) or (1, H, W, C).
   * Throws TypeError for a wrong kind of argument, RangeError for a bad value.
   */
  /** An array of images of one size gives a batch: N = its length. */
  imageToTensor(image: ImageSource | readonly ImageSource[], options: ImageToTensorOptions<'uint8'> & { type: 'uint8' }): OutputTensor<'uint8', Uint8Array>;
  imageToTensor(image: ImageSource | readonly ImageSource[], options: ImageToTensorOptions<'float32'> & { type: 'float32' }): OutputTensor<'float32', Float32Array>;
  /** Without `type`: NHWC gives uint8, */
  imageToTensor(image: ImageSource | readonly ImageSource[], options: ImageToTensorOptions<never> & { layout: 'nhwc' }): OutputTensor<'uint8', Uint8Array>;
  /** and NCHW (the default) float32. */
  imageToTensor(image: ImageSource | readonly ImageSource[], options?: ImageToTensorOptions<never> & { layout?: 'nchw' }): OutputTensor<'float32', Float32Array>;
  imageToTensor(image: ImageSource | readonly ImageSource[], options?: ImageToTensorOptions): OutputTensor<'float32', Float32Array> | OutputTensor<'uint8', Uint8Array>;
  /**
   * Tensor -> image: undoes mean / std / scale (and premultiply), rounds and clamps to 0..255.
   * 1 channel gives grey, 3 give opaque RGB, 4 RGBA.
   */
  tensorToImageData(tensor: Tensor<'float32' | 'float64' | 'uint8'>, options?: TensorToImageDataOptions): ImageDataResult;
  /** Resizes an image with premultiplied alpha and (by default) antialiasing. */
  resizeImage(image: ImageSource, options: ResizeImageOptions): ImageDataResult;
  /**
   * The next three live with the compat modes (osw-compat.wasm): in browsers call
   * `await sampler.loadCompat()` first; Node and the worker API need nothing.
   * resizeCrop: torchvision Resize(size) + CenterCrop(crop): an image as on a PIL image
   * (Pillow's bytes), a tensor as on a tensor (F.interpolate, antialias).
   */
  resizeCrop(image: ImageSource, options: ResizeCropOptions): ImageDataResult;
  resizeCrop<X extends ResizeCropTensor>(x: X, options: ResizeCropOptions): OutputTensor<X['type']>;
  /** YOLO's letterbox: keep the aspect ratio, pad to width x height (Ultralytics LetterBox). */
  letterbox(image: ImageSource, options: LetterboxOptions): LetterboxResult;
  /** An affine warp by a 2x3 pixel matrix, as cv2.warpAffine takes it. */
  warpImage(image: ImageSource, matrix: readonly [readonly [number, number, number], readonly [number, number, number]] | ArrayLike<number>,
    options?: WarpImageOptions): ImageDataResult;
}
