// param_block.h: the parameter block, the one description of what crosses from the JS API
// (bindings/api.js) to the C++ core on every call.
//
// The block is an array of doubles in wasm memory. OSW_PARAM_BLOCK lists its slots in
// order, one row each, and both sides are made from it:
//   - embind.cpp expands it into its slot enum (kOp, kMode, ...), into the reads of the Resize
//     attributes in plan_resize (each RESIZE_ATTR row fills one ResizeAttrs member), and into
//     the table paramTable() gives to JS;
//   - api.js reads that table when a module is loaded: the slot of every name, and, for each
//     Resize attribute, its ONNX attribute name, its resize() option name, its default and
//     the kind of check its value gets (the CHECKS table in api.js). From these it reads,
//     checks and writes the attributes for run(), resize() and upsample() alike.
// Adding a Resize attribute is one RESIZE_ATTR row here (plus the ResizeAttrs member it fills
// and, for a new kind of value, its check in api.js's CHECKS); no other list on either side
// names it.
//
// Rows:
//   SLOT(enum, name, count)   `count` slots under `name` (0: a marker between regions)
//   RESIZE_ATTR(enum, name, ResizeAttrs member, ONNX attribute, resize() option, default,
//               check)        one slot: a Resize attribute. An empty ONNX name: not an
//               attribute of the node but of the call (compat, given with the node).
// The order of the RESIZE_ATTR rows is the order in which a call's attributes are checked
// and listed in messages.
#ifndef OSW_PARAM_BLOCK_H_
#define OSW_PARAM_BLOCK_H_

#include "core/types.h"  // kMaxRank

// clang-format off
#define OSW_PARAM_BLOCK(SLOT, RESIZE_ATTR)                                                    \
  SLOT(kOp, op, 1)                 /* which operator: 1 Resize, 2 GridSample, 3 AffineGrid */ \
  SLOT(kXType, xType, 1)           /* X's element type (DType code) */                        \
  SLOT(kRank, rank, 1)             /* X's rank */                                             \
  RESIZE_ATTR(kMode, mode, mode, "mode", "mode", "nearest", "mode")                           \
  RESIZE_ATTR(kCoord, coord, coord, "coordinate_transformation_mode",                         \
              "coordinateTransformationMode", "half_pixel", "coord")                          \
  RESIZE_ATTR(kNearest, nearest, nearest, "nearest_mode", "nearestMode",                      \
              "round_prefer_floor", "nearest")                                                \
  RESIZE_ATTR(kCubicA, cubicA, cubic_a, "cubic_coeff_a", "cubicCoeffA", "-0.75", "finite")    \
  RESIZE_ATTR(kExclude, excludeOutside, exclude_outside, "exclude_outside", "excludeOutside", \
              "0", "flag")                                                                    \
  RESIZE_ATTR(kExtrapolation, extrapolation, extrapolation_value, "extrapolation_value",      \
              "extrapolationValue", "0", "float32")                                           \
  RESIZE_ATTR(kAntialias, antialias, antialias, "antialias", "antialias", "0", "flag")        \
  RESIZE_ATTR(kPolicy, policy, policy, "keep_aspect_ratio_policy", "keepAspectRatioPolicy",   \
              "stretch", "policy")                                                            \
  RESIZE_ATTR(kCompat, compat, compat, "", "compat", "onnx", "compat")                        \
  SLOT(kHasAxes, hasAxes, 1)       /* Resize inputs: which are given, and how many axes */    \
  SLOT(kNAxes, nAxes, 1)                                                                      \
  SLOT(kHasScales, hasScales, 1)                                                              \
  SLOT(kHasSizes, hasSizes, 1)                                                                \
  SLOT(kHasRoi, hasRoi, 1)                                                                    \
  SLOT(kPadding, padding, 1)       /* GridSample (with mode and compat above) */              \
  SLOT(kAlignCorners, alignCorners, 1)                                                        \
  SLOT(kGridType, gridType, 1)                                                                \
  SLOT(kGridRank, gridRank, 1)                                                                \
  SLOT(kHeaderEnd, headerEnd, 0)   /* the scalars above are zeroed before every call */       \
  SLOT(kInDims, inDims, kMaxRank)                                                             \
  SLOT(kAxes, axes, kMaxRank)                                                                 \
  SLOT(kScales, scales, kMaxRank)                                                             \
  SLOT(kSizes, sizes, kMaxRank)                                                               \
  SLOT(kRoi, roi, 2 * kMaxRank)    /* [starts, ends] of the listed axes */                    \
  SLOT(kKeyEnd, keyEnd, 0)         /* the slots before this one identify a Resize plan */     \
  SLOT(kGridDims, gridDims, kMaxRank)                                                         \
  SLOT(kOutRank, outRank, 1)       /* written by the plan step: the output's rank and dims */ \
  SLOT(kOutDims, outDims, kMaxRank)
// clang-format on

#endif  // OSW_PARAM_BLOCK_H_
