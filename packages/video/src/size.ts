/** A frame size in pixels (its own module so sampling.ts and reference-sampling.ts share it without a cycle). */
export interface Size {
  width: number;
  height: number;
}
