// Benchmark of the episode viewer at scale (issue 8, "Scale"): a 1-hour video with an episode of
// 3 turns x 5 parallel crop windows (K = 64 overview ticks), against the same episode shape on a
// 1-minute video as the baseline, measured in the same run in headless Debian Chromium:
//   - time to first render of the lanes after navigation (cold, then warm reloads);
//   - `]` / `[` latency over 30 presses: keypress -> window highlighted and currentTime inside it,
//     and -> the video's `seeked` (the new frame decoded);
//   - hover -> popover with its filmstrip frames loaded, over 30 hovers;
//   - click -> loop playback started (playing, currentTime advancing inside the window);
//   - requests to /api/videos/... (count and bytes) during the window steps and the hovers:
//     they must be a few filmstrip sheets, not one request per frame;
//   - long tasks (PerformanceObserver "longtask") during 10 s of playback with the playhead moving.
// Everything is real: its own Postgres database, Redis db 11, a worker process that probes the
// videos and makes their filmstrips (video.probe / video.assets), `next start` on a production build.
//
// Usage (from the repository root; Postgres and Redis running as for `npm start`):
//   npx tsx bench/viewer/run.ts [--presses 30] [--hovers 30] [--clicks 15] [--playback-s 10] [--reloads 5] [--no-build]
// Results: bench/out/viewer/viewer-bench.json, figures in bench/README.md ("Episode viewer at scale").

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Page } from "playwright-core";
import { generateTestVideo, testVideoPasses, type TestVideoOptions } from "@paravt/video";
import { cropTimestamps, overviewTimestamps } from "@paravt/video/sampling";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const outDir = resolve(root, "bench/out/viewer");

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const PRESSES = Number(flag("presses", "30"));
const HOVERS = Number(flag("hovers", "30"));
const CLICKS = Number(flag("clicks", "15"));
const PLAYBACK_S = Number(flag("playback-s", "10"));
const RELOADS = Number(flag("reloads", "5"));
const BUILD = !process.argv.includes("--no-build");
for (const [n, v] of Object.entries({ PRESSES, HOVERS, CLICKS, PLAYBACK_S, RELOADS })) {
  if (!(Number.isInteger(v) && v >= 1)) throw new Error(`--${n.toLowerCase()} must be an integer >= 1`);
}

const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const DB_NAME = "paravt_bench_viewer";
process.env.DATABASE_URL ??= `${PG_BASE}/${DB_NAME}`;
process.env.REDIS_URL ??= "redis://127.0.0.1:6379/11";
process.env.REDIS_PREFIX ??= "paravt-bench-viewer";
process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret-0123";
process.env.DATA_DIR ??= join(outDir, "data");
process.env.MEDIA_ROOTS ??= join(outDir, "videos");

/** Same episode shape on both videos: per turn, the 5 parallel windows as fractions of the duration. */
const WINDOW_FRACTIONS: [number, number][][] = [
  [
    [0.02, 0.1],
    [0.15, 0.22],
    [0.3, 0.4],
    [0.5, 0.56],
    [0.7, 0.8],
  ],
  [
    [0.05, 0.12],
    [0.08, 0.18],
    [0.42, 0.48],
    [0.6, 0.66],
    [0.85, 0.95],
  ],
  [
    [0.12, 0.16],
    [0.25, 0.3],
    [0.45, 0.5],
    [0.62, 0.7],
    [0.9, 0.97],
  ],
];
const K = 64;

/** 320x180 keeps the hour quick to render (~1-2 min on 2 cores); 30 fps and libx264's default GOP (8.3 s) keep seeks realistic. */
const VIDEOS: { label: "1 min" | "1 hour"; file: string; opts: TestVideoOptions }[] = [
  {
    label: "1 min",
    file: join(outDir, "videos/minute-320x180.mp4"),
    opts: { durationS: 60, width: 320, height: 180, fps: 30, audio: true },
  },
  {
    label: "1 hour",
    file: join(outDir, "videos/hour-320x180.mp4"),
    opts: { durationS: 3600, width: 320, height: 180, fps: 30, audio: true },
  },
];

const log = (...a: unknown[]) => console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...a);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const pctile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};
const stats = (xs: number[]) => ({ n: xs.length, median: median(xs), p90: pctile(xs, 90), max: Math.max(...xs) });

async function renderOnce(file: string, opts: TestVideoOptions): Promise<void> {
  const recipeFile = `${file}.json`;
  const recipe = JSON.stringify({ passes: testVideoPasses(opts) });
  if (existsSync(file) && existsSync(recipeFile) && (await readFile(recipeFile, "utf8")) === recipe) return;
  const t0 = Date.now();
  await generateTestVideo(file, opts);
  await writeFile(recipeFile, recipe);
  log(`rendered ${file} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

function prepareDatabase(): void {
  // createdb fails harmlessly when the database exists; the migration runner is idempotent.
  const made = spawnSync("createdb", ["-h", "127.0.0.1", "-U", "postgres", DB_NAME], { encoding: "utf8" });
  if (made.status !== 0 && !/already exists/.test(made.stderr)) throw new Error(`createdb: ${made.stderr}`);
  const mig = spawnSync("npx", ["--no-install", "tsx", "prisma/scripts/migrate.ts"], {
    cwd: root,
    env: process.env,
    encoding: "utf8",
  });
  if (mig.status !== 0) throw new Error(`migrate: ${mig.stdout}\n${mig.stderr}`);
}

function buildWeb(): void {
  // A turbo cache hit when apps/web and its dependencies are unchanged since the last build.
  const b = spawnSync(
    "npx",
    ["--no-install", "turbo", "run", "build", "--filter=@paravt/web", "--output-logs=errors-only"],
    {
      cwd: root,
      env: process.env,
      stdio: "inherit",
    },
  );
  if (b.status !== 0) throw new Error("next build failed");
}

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

/** Starts a child and resolves once `ready` (given the output so far) says so. */
async function startProcess(
  name: string,
  cmd: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; ready: (output: string) => Promise<boolean> },
): Promise<ChildProcess> {
  // Plain node (not npx), so SIGTERM reaches the process itself.
  const child = spawn(process.execPath, cmd, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  let exited: number | null = null;
  child.on("exit", (code) => (exited = code ?? -1));
  const deadline = Date.now() + 120_000;
  while (!(await opts.ready(output).catch(() => false))) {
    if (exited !== null) throw new Error(`${name} exited with ${exited}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`${name} did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return child;
}

async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
}

/** One request to /api/videos/...: body bytes received (cancelled Range requests included). */
type Sizes = { url: string; kind: string; status: number; bytes: number; phase: string; failed: boolean };

function kindOf(url: string): string {
  const p = new URL(url).pathname;
  if (/\/filmstrip\/\d+$/.test(p)) return "filmstrip sheet";
  if (p.endsWith("/filmstrip")) return "filmstrip index";
  if (p.endsWith("/file")) return "video file (Range)";
  if (p.endsWith("/frame")) return "single frame";
  if (p.endsWith("/thumbnail")) return "poster";
  return "other";
}

// In-page code is passed as strings: tsx (esbuild keepNames) would wrap functions in __name(),
// which does not exist in the page.
const INIT_SCRIPT = `
  window.__bench = { lanesAt: null, videoAt: null, hoverAt: null, clickAt: null };
  new MutationObserver((_, obs) => {
    const b = window.__bench;
    if (b.lanesAt === null && document.querySelectorAll('[data-testid="crop-window"]').length >= 15) b.lanesAt = performance.now();
    if (b.videoAt === null && document.querySelector('[data-testid="video-player"] video')) b.videoAt = performance.now();
    if (b.lanesAt !== null && b.videoAt !== null) obs.disconnect();
  }).observe(document, { childList: true, subtree: true });
  document.addEventListener("mouseover", (e) => {
    if (e.target instanceof Element && e.target.closest('[data-testid="crop-window"]')) window.__bench.hoverAt = e.timeStamp;
  }, true);
  document.addEventListener("click", (e) => {
    if (e.target instanceof Element && e.target.closest('[data-testid="crop-window"]')) window.__bench.clickAt = e.timeStamp;
  }, true);
`;

/** `]` x (n-1) to the last window, then `[` back, and so on; each step measured from the keydown it dispatches. */
const STEP_WINDOWS = `async (n) => {
  const video = document.querySelector("video");
  const total = document.querySelectorAll('[data-testid="crop-window"]').length;
  const sel = () => document.querySelector('[data-testid="crop-window"][aria-pressed="true"]');
  const ordered = [...document.querySelectorAll('[data-testid="crop-window"]')].sort((a, b) => Number(a.dataset.start) - Number(b.dataset.start));
  let idx = ordered.indexOf(sel());
  let dir = 1;
  const out = [];
  for (let i = 0; i < n; i++) {
    if (idx + dir < 0 || idx + dir >= total) dir = -dir;
    idx += dir;
    const before = sel()?.getAttribute("data-window");
    let seekedAt = null;
    const onSeeked = () => { seekedAt = performance.now(); };
    video.addEventListener("seeked", onSeeked);
    const t0 = performance.now();
    window.dispatchEvent(new KeyboardEvent("keydown", { key: dir === 1 ? "]" : "[", bubbles: true }));
    const shown = await new Promise((resolve) => {
      const check = () => {
        const s = sel();
        if (s && s.getAttribute("data-window") !== before) {
          const a = Number(s.dataset.start), b = Number(s.dataset.end);
          if (video.currentTime >= a - 0.05 && video.currentTime <= b) return resolve(performance.now());
        }
        requestAnimationFrame(check);
      };
      check();
    });
    const deadline = performance.now() + 10000;
    while (seekedAt === null && performance.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    video.removeEventListener("seeked", onSeeked);
    out.push({ highlight: shown - t0, seeked: seekedAt === null ? null : seekedAt - t0 });
  }
  return out;
}`;

/** After a hover: popover of that window in the DOM, then its sprite sheets loaded (resource timing). */
const WAIT_POPOVER = `async (label) => {
  const b = window.__bench;
  const popAt = await new Promise((resolve) => {
    const check = () => {
      const p = document.querySelector('[data-testid="window-popover"]');
      if (p && p.textContent.includes(label) && p.querySelector('[data-testid="window-frame"]')) return resolve(performance.now());
      requestAnimationFrame(check);
    };
    check();
  });
  const urls = [...document.querySelectorAll('[data-testid="window-popover"] [data-testid="window-frame"]')]
    .map((el) => /url\\("?([^")]+)"?\\)/.exec(el.style.backgroundImage)?.[1])
    .filter(Boolean)
    .map((u) => new URL(u, location.href).href);
  const loadedAt = async (u) => {
    const deadline = performance.now() + 10000;
    for (;;) {
      const e = performance.getEntriesByName(u).at(-1);
      if (e && e.responseEnd > 0) return e.responseEnd;
      if (performance.now() > deadline) return null;
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const ends = await Promise.all([...new Set(urls)].map(loadedAt));
  const framesAt = ends.some((e) => e === null) ? null : Math.max(popAt, ...ends);
  return { popover: popAt - b.hoverAt, frames: framesAt === null ? null : framesAt - b.hoverAt, sheets: new Set(urls).size, tiles: urls.length };
}`;

/** After a click on a window: the loop indicator, the video playing and currentTime advancing inside the window. */
const WAIT_LOOP = `async ({ start, end }) => {
  const b = window.__bench;
  const video = document.querySelector("video");
  const deadline = performance.now() + 15000;
  let first = null;
  for (;;) {
    const looping = document.querySelector('[data-testid="looping"]');
    const t = video.currentTime;
    if (looping && !video.paused && t >= start - 0.05 && t <= end + 0.3) {
      if (first === null) first = t;
      else if (t > first + 0.001) return performance.now() - b.clickAt;
    }
    if (performance.now() > deadline) return null;
    await new Promise((r) => requestAnimationFrame(r));
  }
}`;

/** Long tasks, animation-frame gaps and playhead moves while the video plays for `ms`. */
const OBSERVE_PLAYBACK = `async (ms) => {
  const video = document.querySelector("video");
  const tasks = [];
  const po = new PerformanceObserver((l) => tasks.push(...l.getEntries().map((e) => e.duration)));
  po.observe({ type: "longtask" });
  const head = document.querySelector('[data-testid="lanes-playhead"]');
  let moves = 0;
  const mo = new MutationObserver(() => moves++);
  mo.observe(head, { attributes: true, attributeFilter: ["data-t"] });
  const t0 = video.currentTime;
  const gaps = [];
  let last = performance.now();
  const end = last + ms;
  await new Promise((resolve) => {
    const frame = (now) => {
      gaps.push(now - last);
      last = now;
      if (now >= end) return resolve();
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  po.disconnect();
  mo.disconnect();
  return {
    longTasks: tasks.length,
    longTaskMs: tasks.reduce((a, b) => a + b, 0),
    longTaskMaxMs: tasks.length ? Math.max(...tasks) : 0,
    frames: gaps.length,
    gapsOver50: gaps.filter((g) => g > 50).length,
    maxGapMs: Math.max(...gaps),
    playheadMoves: moves,
    advancedS: video.currentTime - t0,
    paused: video.paused,
  };
}`;

interface Seeded {
  label: string;
  durationS: number;
  url: string;
  windows: { id: string; startS: number; endS: number }[];
}

async function seed(baseUrl: string, cookieUserEmail: string): Promise<Seeded[]> {
  const { db, videos, projectAccess } = await import("@paravt/shared/server");
  const { createProject } = await import("@paravt/db/factories");
  const user = await db().user.findUniqueOrThrow({ where: { email: cookieUserEmail } });
  const project = await createProject(db(), user.id, { name: "Viewer at scale" });
  const access = await projectAccess({ kind: "user", userId: user.id }, project.id);
  const dataset = await db().dataset.create({ data: { projectId: project.id, name: "viewer-bench" } });
  const model = await db().model.create({ data: { projectId: project.id, name: "bench-model", kind: "EXTERNAL" } });
  const run = await db().run.create({
    data: {
      projectId: project.id,
      createdById: user.id,
      modelId: model.id,
      kind: "eval",
      jobName: "eval.run",
      name: "viewer bench",
      status: "SUCCEEDED",
      progress: 1,
    },
  });
  const out: Seeded[] = [];
  for (const v of VIDEOS) {
    // The real path: registration, then the worker's video.probe and video.assets (filmstrip) jobs.
    const { video } = await videos.registerVideoPath(access, { path: v.file, name: `${v.label}.mp4` });
    const deadline = Date.now() + 600_000;
    let row = await db().video.findUniqueOrThrow({ where: { id: video.id } });
    while (row.status !== "READY") {
      if (row.status === "FAILED") throw new Error(`video ${v.label} failed: ${row.error}`);
      if (Date.now() > deadline) throw new Error(`video ${v.label} not READY after 10 min (${row.status})`);
      await new Promise((r) => setTimeout(r, 500));
      row = await db().video.findUniqueOrThrow({ where: { id: video.id } });
    }
    const d = row.durationS!;
    const sample = await db().sample.create({
      data: {
        datasetId: dataset.id,
        videoId: row.id,
        key: `needle-${v.label.replace(" ", "")}`,
        question: "What color is the square that appears?",
        options: ["A. red", "B. green", "C. blue", "D. yellow"],
        answer: "A",
        questionType: "mcq",
      },
    });
    const r1 = (x: number) => Math.round(x * 10) / 10;
    const turns = WINDOW_FRACTIONS.map((calls, ti) => ({
      index: ti,
      rawText:
        `<think>Turn ${ti + 1}: look at ${calls.length} windows in parallel.</think>\n` +
        calls
          .map(
            ([a, b]) =>
              `<tool_call>\n{"name": "crop_video", "arguments": {"video_path": "video.mp4", "start_time": ${r1(a * d)}, "end_time": ${r1(b * d)}}}\n</tool_call>`,
          )
          .join("\n"),
      toolCalls: {
        create: calls.map(([a, b], ci) => ({
          index: ci,
          name: "crop_video",
          arguments: { video_path: "video.mp4", start_time: r1(a * d), end_time: r1(b * d) },
          startS: r1(a * d),
          endS: r1(b * d),
          frameTimestamps: cropTimestamps(r1(a * d), r1(b * d), d),
          subAgentOutput: `Window ${ti + 1}.${ci + 1}: a moving test pattern, the clock reads ${r1(a * d)} s; no coloured square.`,
          durationMs: 900 + ci * 40,
        })),
      },
    }));
    const episode = await db().episode.create({
      data: {
        runId: run.id,
        sampleId: sample.id,
        modelId: model.id,
        k: K,
        promptMode: "agentic_general",
        finalText: "<think>Enough seen.</think><answer>A</answer>",
        prediction: "A",
        score: 1,
        correct: true,
        toolCallCount: 15,
        overviewTimestamps: overviewTimestamps(d, K),
        turns: {
          create: [
            ...turns,
            { index: 3, rawText: "<think>Enough seen.</think><answer>A</answer>", toolCalls: { create: [] } },
          ],
        },
      },
    });
    out.push({
      label: v.label,
      durationS: d,
      url: `${baseUrl}/projects/${project.id}/episodes/${episode.id}`,
      windows: turns.flatMap((t) =>
        t.toolCalls.create.map((c) => ({ id: `${t.index}.${c.index}`, startS: c.startS, endS: c.endS })),
      ),
    });
  }
  return out;
}

async function measure(page: Page, s: Seeded, requests: Sizes[], setPhase: (p: string) => void) {
  const lanes = '[data-testid="crop-window"]';
  // Time to first render: a cold load (new page, empty HTTP cache for this video), then warm reloads.
  setPhase("load");
  const loads: { lanes: number; video: number }[] = [];
  for (let i = 0; i <= RELOADS; i++) {
    if (i === 0) await page.goto(s.url);
    else await page.reload();
    await page.waitForFunction(`window.__bench && window.__bench.lanesAt !== null && window.__bench.videoAt !== null`);
    loads.push((await page.evaluate(`({ lanes: window.__bench.lanesAt, video: window.__bench.videoAt })`)) as never);
  }
  await page.locator(lanes).nth(14).waitFor();
  // Let the player settle (metadata loaded) before stepping.
  await page.waitForFunction(`document.querySelector("video") && document.querySelector("video").readyState >= 1`);

  // ] / [ steps, starting from the first window (selected by one unmeasured ]).
  await page.mouse.move(0, 0);
  await page.keyboard.press("]");
  await page.waitForSelector(`${lanes}[aria-pressed="true"]`);
  setPhase("steps");
  const steps = (await page.evaluate(`(${STEP_WINDOWS})(${PRESSES})`)) as {
    highlight: number;
    seeked: number | null;
  }[];

  // Hovers: cycle through the windows; leave to an empty corner in between.
  setPhase("hovers");
  const hovers: { popover: number; frames: number | null; sheets: number; tiles: number }[] = [];
  for (let i = 0; i < HOVERS; i++) {
    const w = s.windows[i % s.windows.length]!;
    await page.mouse.move(0, 0);
    await page.locator('[data-testid="window-popover"]').waitFor({ state: "detached" });
    const box = (await page.locator(`${lanes}[data-window="${w.id}"]`).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const [turn, call] = w.id.split(".").map(Number);
    hovers.push(
      (await page.evaluate(`(${WAIT_POPOVER})(${JSON.stringify(`Turn ${turn! + 1} · call ${call! + 1}`)})`)) as never,
    );
  }

  // Clicks: each plays its window in a loop; stop (Escape, pause) before the next.
  setPhase("clicks");
  const clicks: (number | null)[] = [];
  for (let i = 0; i < CLICKS; i++) {
    const w = s.windows[(i * 7) % s.windows.length]!; // hop around the timeline, not neighbour to neighbour
    const box = (await page.locator(`${lanes}[data-window="${w.id}"]`).boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    clicks.push(
      (await page.evaluate(`(${WAIT_LOOP})(${JSON.stringify({ start: w.startS, end: w.endS })})`)) as number | null,
    );
    await page.keyboard.press("Escape");
    await page.evaluate(`document.querySelector("video").pause()`);
  }

  // Playback from 0 (a click on the ruler's left edge seeks there), started with Space.
  await page.mouse.move(0, 0);
  const track = (await page.locator('[data-testid="lanes-track"]').boundingBox())!;
  await page.mouse.click(track.x + 1, track.y + track.height / 2);
  // One pixel of the track is ~3.6 s of the hour: accept the first 1% of the video.
  await page.waitForFunction(`document.querySelector("video").currentTime < ${s.durationS * 0.01 + 0.5}`);
  setPhase("playback");
  await page.keyboard.press(" ");
  await page.waitForFunction(`!document.querySelector("video").paused`);
  const playback = (await page.evaluate(`(${OBSERVE_PLAYBACK})(${PLAYBACK_S * 1000})`)) as Record<string, number>;
  await page.evaluate(`document.querySelector("video").pause()`);
  setPhase("idle");

  const net = (phase: string) => {
    const rs = requests.filter((r) => r.phase === phase);
    const byKind: Record<string, { n: number; bytes: number }> = {};
    for (const r of rs) {
      const k = (byKind[r.kind] ??= { n: 0, bytes: 0 });
      k.n++;
      k.bytes += r.bytes;
    }
    return {
      n: rs.length,
      bytes: rs.reduce((a, r) => a + r.bytes, 0),
      failed: rs.filter((r) => r.failed).length,
      byKind,
    };
  };
  return {
    label: s.label,
    durationS: s.durationS,
    load: {
      coldLanesMs: loads[0]!.lanes,
      coldVideoMs: loads[0]!.video,
      warmLanesMs: stats(loads.slice(1).map((l) => l.lanes)),
    },
    steps: {
      highlightMs: stats(steps.map((x) => x.highlight)),
      seekedMs: stats(steps.flatMap((x) => (x.seeked === null ? [] : [x.seeked]))),
      seekedMissing: steps.filter((x) => x.seeked === null).length,
    },
    hovers: {
      popoverMs: stats(hovers.map((h) => h.popover)),
      framesMs: stats(hovers.flatMap((h) => (h.frames === null ? [] : [h.frames]))),
      framesMissing: hovers.filter((h) => h.frames === null).length,
      tilesPerPopover: median(hovers.map((h) => h.tiles)),
      sheetsPerPopover: median(hovers.map((h) => h.sheets)),
    },
    clicks: {
      loopStartedMs: stats(clicks.flatMap((c) => (c === null ? [] : [c]))),
      missing: clicks.filter((c) => c === null).length,
    },
    playback,
    network: {
      load: net("load"),
      steps: net("steps"),
      hovers: net("hovers"),
      clicks: net("clicks"),
      playback: net("playback"),
    },
  };
}

async function main(): Promise<void> {
  await mkdir(join(outDir, "videos"), { recursive: true });
  const machine = {
    cpus: `${cpus().length} x ${cpus()[0]?.model ?? "?"}`,
    memGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    loadBefore: loadavg().map((l) => l.toFixed(2)),
  };
  log("machine", machine);
  for (const v of VIDEOS) await renderOnce(v.file, v.opts);
  prepareDatabase();
  if (BUILD) buildWeb();

  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const env = {
    ...process.env,
    APP_URL: baseUrl,
    NODE_ENV: "production" as const,
    WORKER_QUEUES: "cpu,gpu",
    WORKER_CONCURRENCY: "1",
  };
  let web: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
    ],
  });
  try {
    worker = await startProcess("worker", ["--import", "tsx", "src/main.ts"], {
      cwd: join(root, "workers"),
      env,
      ready: async (output) => output.includes("worker started"),
    });
    web = await startProcess("web", [join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port)], {
      cwd: join(root, "apps/web"),
      env,
      ready: async () => (await fetch(`${baseUrl}/api/health`)).ok,
    });
    log(`web on ${baseUrl}`);

    const context = await browser.newContext();
    const email = `viewer-bench-${Date.now().toString(36)}@example.test`;
    const signUp = await context.request.post(`${baseUrl}/api/auth/sign-up/email`, {
      data: { name: "Viewer bench", email, password: "correct-horse-battery" },
      headers: { origin: baseUrl },
    });
    if (!signUp.ok()) throw new Error(`sign-up: ${signUp.status()} ${await signUp.text()}`);
    const seeded = await seed(baseUrl, email);
    log(
      "seeded",
      seeded.map((s) => `${s.label}: ${s.url}`),
    );

    const results = [];
    for (const s of seeded) {
      // A fresh context per video (empty HTTP cache, same session), so both cold loads fetch the app's JS.
      // bypassCSP: the measuring predicates are strings Playwright evaluates in the page, which
      // the app's Content-Security-Policy (no 'unsafe-eval') would refuse; the app is unchanged.
      const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
      await ctx.addCookies(await context.cookies());
      await ctx.addInitScript(INIT_SCRIPT);
      const page = await ctx.newPage();
      let phase = "idle";
      const requests: Sizes[] = [];
      // Bytes from the DevTools protocol: a media Range request is usually cancelled at the next
      // seek, so Playwright's finished/failed events would miss what it downloaded.
      const cdp = await ctx.newCDPSession(page);
      await cdp.send("Network.enable");
      const live = new Map<string, Sizes>();
      cdp.on("Network.requestWillBeSent", (e) => {
        if (!e.request.url.includes("/api/videos/")) return;
        const r: Sizes = { url: e.request.url, kind: kindOf(e.request.url), status: 0, bytes: 0, phase, failed: false };
        live.set(e.requestId, r);
        requests.push(r);
      });
      cdp.on("Network.responseReceived", (e) => {
        const r = live.get(e.requestId);
        if (r) r.status = e.response.status;
      });
      cdp.on("Network.dataReceived", (e) => {
        const r = live.get(e.requestId);
        if (r) r.bytes += e.dataLength;
      });
      cdp.on("Network.loadingFailed", (e) => {
        const r = live.get(e.requestId);
        if (r) r.failed = true;
      });
      log(`measuring ${s.label}`);
      results.push(await measure(page, s, requests, (p) => (phase = p)));
      await ctx.close();
    }
    const [minute, hour] = results as [(typeof results)[0], (typeof results)[0]];
    const ratio = (a: number, b: number) => (b > 0 ? a / b : NaN);
    const summary = {
      date: new Date().toISOString(),
      machine: { ...machine, loadAfter: loadavg().map((l) => l.toFixed(2)) },
      settings: {
        PRESSES,
        HOVERS,
        CLICKS,
        PLAYBACK_S,
        RELOADS,
        K,
        videos: VIDEOS.map((v) => ({ label: v.label, ...v.opts })),
      },
      results,
      ratios: {
        warmLanes: ratio(hour.load.warmLanesMs.median, minute.load.warmLanesMs.median),
        stepHighlight: ratio(hour.steps.highlightMs.median, minute.steps.highlightMs.median),
        stepSeeked: ratio(hour.steps.seekedMs.median, minute.steps.seekedMs.median),
        hoverPopover: ratio(hour.hovers.popoverMs.median, minute.hovers.popoverMs.median),
        hoverFrames: ratio(hour.hovers.framesMs.median, minute.hovers.framesMs.median),
        loopStarted: ratio(hour.clicks.loopStartedMs.median, minute.clicks.loopStartedMs.median),
        playbackLongTaskMs: ratio(hour.playback.longTaskMs!, minute.playback.longTaskMs!),
      },
    };
    await writeFile(join(outDir, "viewer-bench.json"), JSON.stringify(summary, null, 2));
    console.log(JSON.stringify(summary, null, 2));
  } finally {
    await browser.close();
    await stopProcess(web);
    await stopProcess(worker);
    const { closeQueues, closeEventBus, redis } = await import("@paravt/shared/server");
    await closeQueues().catch(() => {});
    await closeEventBus().catch(() => {});
    await redis()
      .quit()
      .catch(() => {});
  }
}

await main();
process.exit(0);
