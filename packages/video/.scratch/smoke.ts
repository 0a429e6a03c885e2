import {
  generateTestVideo,
  probe,
  overview,
  cropWindow,
  decodeStats,
  readFrameIndex,
  makeFixture,
  FIXTURE_ERROR,
  thumbnail,
  filmstrip,
} from "../src/index";
import sharp from "sharp";
const v = "/tmp/vt/fi.mp4";
let t0 = performance.now();
//await generateTestVideo(v, { durationS: 120, width: 320, height: 180, fps: 25, pattern: "frame-index", keyframeIntervalS: 2 });
console.log("gen", (performance.now() - t0).toFixed(0), "ms");
t0 = performance.now();
const info = await probe(v);
console.log("probe", (performance.now() - t0).toFixed(1), "ms", info);
for (const maxErrorS of [undefined, 0]) {
  t0 = performance.now();
  const frames = await overview(v, 64, { maxErrorS });
  console.log("overview", maxErrorS, (performance.now() - t0).toFixed(0), "ms", JSON.stringify(decodeStats));
  let bad = 0;
  for (const f of frames) {
    const { data, info: i } = await sharp(f.jpeg).greyscale().raw().toBuffer({ resolveWithObject: true });
    const n = readFrameIndex(data, i.width, i.height);
    const expectTime = n / 25;
    if (Math.abs(expectTime - f.sourceTime) > 1e-6) bad++;
  }
  console.log(
    " frames",
    frames.length,
    frames[0]!.width,
    frames[0]!.height,
    "barcode mismatches",
    bad,
    frames.slice(0, 5).map((f) => [f.timestamp, f.sourceTime]),
  );
}
t0 = performance.now();
const c = await cropWindow(v, 30.2, 46.2);
console.log(
  "crop",
  (performance.now() - t0).toFixed(0),
  "ms",
  c.start,
  c.end,
  c.frames.map((f) => [f.timestamp.toFixed(2), f.sourceTime.toFixed(2)].join("/")).join(" "),
);
const th = await thumbnail(v);
console.log("thumb", th.width, th.height, th.sourceTime, th.jpeg.length);
const fs = await filmstrip(v, { frames: 30 });
console.log(
  "strip",
  JSON.stringify({ ...fs.index, frames: fs.index.frames.slice(0, 3) }),
  fs.sheets.map((s) => s.length),
);
for (const kind of Object.keys(FIXTURE_ERROR) as (keyof typeof FIXTURE_ERROR)[]) {
  const out = `/tmp/vt/fx-${kind}.mp4`;
  await makeFixture(kind, out, { source: v });
  try {
    await probe(out);
    console.log(kind, "NO ERROR");
  } catch (e: any) {
    console.log(kind, e.code, e.code === FIXTURE_ERROR[kind] ? "ok" : "MISMATCH", e.message);
  }
}
