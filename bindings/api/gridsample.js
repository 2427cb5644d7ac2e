// gridsample.js: the GridSample operator: its arguments read and checked, then the call.
//
// runGridSample() takes a node's attributes and inputs (run(), GridSample-16, 20 and 22),
// gridSampleOpts() the options of sampler.gridSample(); both check X and the grid the same
// way (gridSampleChecked) and gridSample() writes the parameter block and runs the kernel.
// Each function takes the sampler (sampler-core.js) as its first argument.

import { COMPAT_PILLOW, COMPATS, GRID_COMPATS, GRID_MODES_16, GRID_MODES_20, OP_GRID_SAMPLE, PADDING_MODES } from './opsets.js';
import { checkTensor, requireType, widenHalf } from './tensors.js';
import { attr, checkAttributes, checkBool01, checkEnum, checkOptions, enumOpt, opt, opVersion } from './validate.js';

function gridSample(s, x, grid, p, target) {
  const S = s._S, M = s._M;
  const b = s._begin(OP_GRID_SAMPLE, x);
  b[S.mode] = p.mode;
  b[S.padding] = p.padding;
  b[S.alignCorners] = p.alignCorners;
  b[S.compat] = p.compat || 0;
  b[S.gridType] = grid.info.code;
  b[S.gridRank] = grid.dims.length;
  for (let i = 0; i < grid.dims.length; i++) b[S.gridDims + i] = grid.dims[i];
  s._check(M._osw_plan_grid_sample());
  return s._execute(x, grid, target, OP_GRID_SAMPLE);
}

export function runGridSample(s, opset, attributes, inputs, target, compat) {
  const version = opVersion('GridSample', opset, [16, 20, 22]);
  const name = `GridSample-${version} (opset ${opset})`;
  const a = checkAttributes(attributes, ['mode', 'padding_mode', 'align_corners'], name);
  if (inputs.length > 2) throw new RangeError(`inputs: ${name} takes 2 inputs, got ${inputs.length}`);
  const modes = version === 16 ? GRID_MODES_16 : GRID_MODES_20;
  if (compat >= COMPAT_PILLOW)
    throw new RangeError(`compat: '${Object.keys(COMPATS)[compat]}' applies to Resize only; GridSample takes 'onnx', 'onnxruntime' or 'pytorch'`);
  const p = {
    mode: checkEnum(attr(a, 'mode', version === 16 ? 'bilinear' : 'linear'), 'mode', modes),
    padding: checkEnum(attr(a, 'padding_mode', 'zeros'), 'padding_mode', PADDING_MODES),
    alignCorners: checkBool01(attr(a, 'align_corners', 0), 'align_corners'),
    compat,
  };
  return gridSampleChecked(s, inputs[0], inputs[1], p, version === 16 ? 4 : 0, target);
}

function gridSampleChecked(s, xIn, gridIn, p, exactRank, target) {
  if (xIn === null || xIn === undefined) throw new TypeError('X: the input tensor is required');
  if (gridIn === null || gridIn === undefined) throw new TypeError('grid: the grid tensor is required');
  const x = checkTensor(xIn, 'X');
  const grid = checkTensor(gridIn, 'grid');
  if (exactRank && x.dims.length !== exactRank)
    throw new RangeError(`X: GridSample-16 accepts only 4-D input (N, C, H, W), got rank ${x.dims.length}; use opset 20 or later for other ranks`);
  s._checkRank(x, 'X', 3);
  requireType(grid, 'grid', ['float32', 'float64', 'float16']);
  return gridSample(s, x, widenHalf(grid), p, target);
}

export function gridSampleOpts(s, x, grid, options, target) {
  s._live();
  const o = checkOptions(options, 'gridSample', ['mode', 'paddingMode', 'alignCorners', 'compat']);
  const p = {
    mode: enumOpt(o, 'mode', 'linear', GRID_MODES_20),
    padding: enumOpt(o, 'paddingMode', 'zeros', PADDING_MODES),
    alignCorners: checkBool01(opt(o, 'alignCorners', false), 'alignCorners'),
    compat: enumOpt(o, 'compat', 'onnx', GRID_COMPATS),
  };
  return gridSampleChecked(s, x, grid, p, 0, target);
}
