// The visual vocabulary of the suite: shapes, the bright colors shapes are drawn in, the dark
// colors scene backgrounds are drawn in, and the 3x3 grid of positions. The two color sets use
// different names (no "blue shape" vs "blue scene" ambiguity) and are far apart in RGB, so a
// decoded frame can be classified pixel by pixel after H.264 + JPEG (see render.int.test.ts).

export const SHAPES = ["circle", "square", "triangle", "diamond", "cross"] as const;
export type Shape = (typeof SHAPES)[number];

export type Rgb = readonly [number, number, number];

export const SHAPE_COLORS = ["red", "orange", "yellow", "green", "cyan", "white"] as const;
export type ShapeColor = (typeof SHAPE_COLORS)[number];

/** Bright, saturated fills (pairwise RGB distance >= 100). */
export const SHAPE_RGB: Readonly<Record<ShapeColor, Rgb>> = {
  red: [225, 35, 35],
  orange: [250, 140, 10],
  yellow: [240, 235, 40],
  green: [40, 200, 60],
  cyan: [40, 200, 235],
  white: [245, 245, 245],
};

export const SCENE_COLORS = ["blue", "purple", "brown", "gray", "teal", "olive"] as const;
export type SceneColor = (typeof SCENE_COLORS)[number];

/** Dark base colors of backgrounds; the renderer varies them slowly in space and time (±15%). */
export const SCENE_RGB: Readonly<Record<SceneColor, Rgb>> = {
  blue: [30, 50, 140],
  purple: [85, 35, 120],
  brown: [105, 65, 30],
  gray: [80, 80, 85],
  teal: [20, 95, 95],
  olive: [85, 90, 25],
};

/** Cells of the 3x3 grid, row-major: index = row * 3 + column. */
export const POSITIONS = [
  "top-left",
  "top-center",
  "top-right",
  "middle-left",
  "center",
  "middle-right",
  "bottom-left",
  "bottom-center",
  "bottom-right",
] as const;
export type Position = (typeof POSITIONS)[number];

/** What a shape looks like, without where or when: the identity questions talk about. */
export interface Appearance {
  readonly shape: Shape;
  readonly color: ShapeColor;
}

/** "red circle": how questions, answers and summaries name an appearance. */
export function appearanceName(a: Appearance): string {
  return `${a.color} ${a.shape}`;
}

export function appearanceKey(a: Appearance): string {
  return `${a.color}/${a.shape}`;
}

export function sameAppearance(a: Appearance, b: Appearance): boolean {
  return a.shape === b.shape && a.color === b.color;
}

/** Every (color, shape) pair, in a fixed order. */
export const ALL_APPEARANCES: readonly Appearance[] = SHAPE_COLORS.flatMap((color) =>
  SHAPES.map((shape) => ({ shape, color })),
);
