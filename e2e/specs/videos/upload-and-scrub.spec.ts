import os from "node:os";
import path from "node:path";
import fs from "node:fs/promises";
import { generateTestVideo } from "@paravt/video";
import { expect, test } from "@playwright/test";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test("upload a video, watch it get processed live, scrub it with overview ticks", async ({ page }) => {
  // A real 40-second H.264 file made by ffmpeg.
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "paravt-e2e-"));
  const file = path.join(dir, "lecture.mp4");
  await generateTestVideo(file, { durationS: 40, width: 320, height: 180, fps: 10, keyframeIntervalS: 2 });

  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Uploader");
  await page.getByLabel("Email").fill(`uploader-${unique()}@example.test`);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("button", { name: "New project" }).click();
  await page.getByLabel("Name").fill("Scrubbing");
  await page.getByRole("button", { name: "Create project" }).click();
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Videos" }).click();

  // A text file named like a video is refused by its bytes, with a readable reason.
  await page.getByLabel("Upload a video file").setInputFiles({
    name: "notes.mp4",
    mimeType: "video/mp4",
    buffer: Buffer.from("definitely not a video\n".repeat(40)),
  });
  await expect(page.getByRole("alert").filter({ hasText: "notes.mp4 is not a video file" })).toBeVisible();

  await page.getByLabel("Upload a video file").setInputFiles(file);
  const row = page.getByRole("table", { name: "Videos" }).getByRole("row", { name: /lecture\.mp4/ });
  // Live status over SSE: probe, then thumbnails/filmstrip, then ready.
  await expect(row).toContainText("ready", { timeout: 60_000 });
  await expect(row).toContainText("0:40");
  await expect(row.getByRole("img")).toBeVisible();

  await row.getByRole("link", { name: "lecture.mp4" }).click();
  await expect(page.getByTestId("video-player").locator("video")).toBeAttached();
  await page.getByLabel("Overview frames (K)").selectOption("8");
  await expect(page).toHaveURL(/k=8/);
  const ticks = page.getByTestId("overview-tick");
  await expect(ticks).toHaveCount(8);

  // Each tick sits at t / duration of the track width (t_i = i * 40 / 8 = 5 i seconds).
  const track = (await page.getByTestId("timeline-track").boundingBox())!;
  for (let i = 0; i < 8; i++) {
    const tick = ticks.nth(i);
    await expect(tick).toHaveAttribute("data-t", String(i * 5));
    const box = (await tick.boundingBox())!;
    const center = box.x + box.width / 2;
    expect(Math.abs(center - (track.x + (track.width * i) / 8))).toBeLessThanOrEqual(1.5);
  }

  // Clicking a tick seeks the player there.
  await ticks.nth(5).click();
  await expect(page.getByTestId("current-time")).toHaveText(/^25\.0 s \/ 40\.0 s$/);
  const playerTime = await page
    .getByTestId("video-player")
    .locator("video")
    .evaluate((v: HTMLVideoElement) => v.currentTime);
  expect(playerTime).toBeCloseTo(25, 1);

  // Hovering the timeline shows the filmstrip frame of that moment.
  const now = (await page.getByTestId("timeline-track").boundingBox())!;
  await page.mouse.move(now.x + now.width * 0.75, now.y + now.height / 2, { steps: 3 });
  await expect(page.getByTestId("filmstrip-preview")).toContainText("30.0 s");
  await expect(page.getByTestId("filmstrip-preview").locator("div").first()).toHaveCSS(
    "background-image",
    /filmstrip\/0/,
  );

  // Keyboard: ] jumps to the next overview frame.
  await page.mouse.move(0, 0);
  await page.keyboard.press("]");
  await expect(page.getByTestId("current-time")).toHaveText(/^30\.0 s/);
  await fs.rm(dir, { recursive: true, force: true });
});
