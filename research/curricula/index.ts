// The SFT curricula that trained the shipped default, as plug-ins of the product trainer's one
// extension point (`trainSft({ curricula })`, packages/nano/src/curriculum.ts). List them in this
// order (train.ts does): the dataset fingerprint mixes them in list order, and this is the order
// in which the trainer's former options were mixed, so checkpoints of those runs still resume.
//   paletteEmphasis, answerEmphasis, frameTargets, frameDrill, permutePalette, permuteDigits
export {
  answerEmphasis,
  emphasisWeights,
  lastTurnStart,
  PALETTE_WORDS,
  paletteEmphasis,
  paletteTokenIds,
  tokenEmphasis,
  type LossEmphasis,
} from "./emphasis";
export {
  DEFAULT_FRAME_TARGET_ORDER,
  frameDrill,
  frameTargets,
  FrameTargetsError,
  parseFrameTargetOrder,
  suiteFrameTargets,
  type FrameTargetLabel,
  type FrameTargetOrder,
  type FrameTargets,
} from "./frame-targets";
export {
  drawPermutation,
  palettePieces,
  permutable,
  permutePalette,
  permuteIds,
  PERMUTED_GROUPS,
  type PalettePieces,
} from "./palette-permutation";
export { digitIds, digitPermutable, drawDigitPermutation, permuteDigitIds, permuteDigits } from "./digit-permutation";
