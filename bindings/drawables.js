// drawables.js: the browser image sources that are read by drawing them into a scratch
// canvas, how to get each one's pixel size (0 while it is not ready) and the message when it
// is not. One table for image.js (the synchronous helpers) and worker-client.js (which reads
// the ones a worker cannot receive before posting).
export const OSW_DRAWABLES = [
  ['HTMLImageElement', (v) => (v.complete ? [v.naturalWidth, v.naturalHeight] : [0, 0]), 'the <img> has not finished loading (or failed to)'],
  ['SVGImageElement', (v) => [v.width.baseVal.value, v.height.baseVal.value], 'the SVG <image> has no size'],
  ['HTMLVideoElement', (v) => (v.readyState >= 2 ? [v.videoWidth, v.videoHeight] : [0, 0]), 'the <video> has no current frame yet'],
  ['HTMLCanvasElement', (v) => [v.width, v.height], 'the canvas is empty (width or height 0)'],
  ['OffscreenCanvas', (v) => [v.width, v.height], 'the canvas is empty (width or height 0)'],
  ['ImageBitmap', (v) => [v.width, v.height], 'the ImageBitmap is empty or closed'],
  ['VideoFrame', (v) => [v.displayWidth, v.displayHeight], 'the VideoFrame is empty or closed'],
];
