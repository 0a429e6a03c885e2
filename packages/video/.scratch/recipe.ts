import { writeFile } from "node:fs/promises";
import { testVideoPasses } from "../src/index";
await writeFile("/work/main/bench/out/video-3600s-1280x720-30fps-g250-audio.mp4.json", JSON.stringify({ passes: testVideoPasses({ durationS: 3600, width: 1280, height: 720, fps: 30, audio: true }) }));
