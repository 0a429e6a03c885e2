// fixture.h: the versioned binary fixture of one full training step (test/fixtures/step-v1.bin).
//
// Design. A 256-byte little-endian header (magic "PVTK", version, model config, batch shape,
// AdamW settings, expected scalars) followed by raw little-endian arrays in a fixed order:
//   inputs   int32 [B,T]   token ids, FRAME_TOKEN (-1) at frame slots
//   targets  int32 [B,T]
//   mask     f32   [B,T]
//   frames   f32   [B,T,P]
//   params   f32   [num_params]  before the step, layout of model_layout()
//   logits   f32   [B,T,V]
//   losses   f32   [B,T]         per-token loss, 0 where masked out
//   grads    f32   [num_params]
//   after    f32   [num_params]  parameters after one clipped AdamW step
// gen_fixture writes it from a fixed seed with the CPU reference; test_fixture (C++) and
// src/fixture.test.ts (through the addon) recompute the step from inputs and params and compare.
// A change of the format bumps the version and the file name.
#pragma once

#include <stdint.h>

#define FIXTURE_MAGIC 0x4B545650  // bytes 'P' 'V' 'T' 'K'
#define FIXTURE_VERSION 1

struct FixtureHeader {
  int32_t magic, version;
  int32_t vocab_size, context, width, layers, heads, frame_dim;
  int32_t B, T, num_params, seed;
  int32_t reserved_i[20];
  float lr, beta1, beta2, eps, weight_decay, max_grad_norm;
  float loss, grad_norm, clip_scale, mask_sum;
  float reserved_f[22];
};
static_assert(sizeof(FixtureHeader) == 256, "fixture header is 256 bytes");
