// affinegrid.js: the AffineGrid operator: its arguments read and checked, then the call.
//
// runAffineGrid() takes a node's attribute and inputs (run(), AffineGrid-20),
// affineGridOpts() the arguments of sampler.affineGrid(); affineGrid() writes the parameter
// block and runs the kernel. Each function takes the sampler (sampler-core.js) first.

import { OP_AFFINE_GRID } from './opsets.js';
import { checkTensor, requireType } from './tensors.js';
import { attr, checkAttributes, checkBool01, checkInt, checkList, checkOptions, describe, intElem, opt, opVersion } from './validate.js';

// AffineGrid: theta (N, 2, 3) or (N, 3, 4), float32/float64/float16; size [N, C, H, W]
// or [N, C, D, H, W]. The core checks the shapes (src/affinegrid/affinegrid.h); here the kinds.
export function runAffineGrid(s, opset, attributes, inputs, target) {
  const version = opVersion('AffineGrid', opset, [20]);
  const name = `AffineGrid-${version} (opset ${opset})`;
  const a = checkAttributes(attributes, ['align_corners'], name);
  if (inputs.length > 2) throw new RangeError(`inputs: ${name} takes 2 inputs, got ${inputs.length}`);
  if (inputs[0] === null || inputs[0] === undefined) throw new TypeError('theta: the input tensor is required');
  if (inputs[1] === null || inputs[1] === undefined) throw new TypeError('size: the size tensor is required');
  const theta = checkTensor(inputs[0], 'theta');
  const sizes = affineSizeTensor(checkTensor(inputs[1], 'size'));
  return affineGrid(s, theta, sizes, checkBool01(attr(a, 'align_corners', 0), 'align_corners'), target);
}

// The values of an int64 size tensor (1-D), each a safe integer.
function affineSizeTensor(t) {
  requireType(t, 'size', ['int64']);
  if (t.dims.length !== 1) throw new RangeError(`size: expected a 1-D tensor, got dims [${t.dims.join(', ')}]`);
  const data = t.wasm ? t.wasm.data : t.data;
  const out = new Array(t.size);
  for (let i = 0; i < t.size; i++) out[i] = checkInt(data[i], 'size', i);
  return out;
}

// theta: a checked tensor; sizes: numbers (checked integers); align: 0 or 1.
function affineGrid(s, theta, sizes, align, target) {
  requireType(theta, 'theta', ['float32', 'float64', 'float16']);
  s._checkRank(theta, 'theta', 0);
  const S = s._S, M = s._M;
  const b = s._begin(OP_AFFINE_GRID, theta);
  b[S.nAxes] = sizes.length;  // the core refuses any count but 4 and 5 before reading
  for (let i = 0; i < Math.min(sizes.length, s._maxRank); i++) b[S.sizes + i] = sizes[i];
  b[S.alignCorners] = align;
  s._check(M._osw_plan_affine_grid());
  return s._execute(theta, null, target, OP_AFFINE_GRID);
}

// sampler.affineGrid(theta, size, options): size as an array of integers (numbers or
// bigints) or as an int64 tensor.
export function affineGridOpts(s, theta, size, options) {
  s._live();
  const o = checkOptions(options, 'affineGrid', ['alignCorners']);
  const align = checkBool01(opt(o, 'alignCorners', false), 'alignCorners');
  if (theta === null || theta === undefined) throw new TypeError('theta: the input tensor is required');
  const t = checkTensor(theta, 'theta');
  let sizes;
  if (Array.isArray(size) || (ArrayBuffer.isView(size) && !(size instanceof DataView))) sizes = checkList(size, 'size', intElem);
  else if (size !== null && typeof size === 'object') sizes = affineSizeTensor(checkTensor(size, 'size'));
  else throw new TypeError(`size: expected an array of integers or an int64 tensor, got ${describe(size)}`);
  return affineGrid(s, t, sizes, align, null);
}
