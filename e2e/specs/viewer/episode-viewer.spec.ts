import { readFile } from "node:fs/promises";
import { createDb } from "@paravt/db";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { addEndpointModel, evaluateOnSuiteAtK8, generateOneVideoSuite, signUpWithProject } from "../support";
import { scriptedWindows, startScriptedChatServer } from "./scripted-chat-server";

const videoTime = (page: Page) =>
  page
    .getByTestId("video-player")
    .locator("video")
    .evaluate((v: HTMLVideoElement) => v.currentTime);

/** Horizontal pixel of time t on the lanes' track (the positioning formula under test). */
async function xOf(page: Page, t: number, duration: number) {
  const track = (await page.getByTestId("lanes-track").boundingBox())!;
  return track.x + (track.width * t) / duration;
}

async function box(l: Locator) {
  return (await l.boundingBox())!;
}

test("episode viewer: overview ticks and parallel crop windows on the timeline, window loop, keyboard, URL", async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const llm = await startScriptedChatServer();
  try {
    await signUpWithProject(page, { user: "Viewer", emailPrefix: "viewer", project: "Episode viewer" });
    // One generated 1-minute needle video with its questions (as in the nano eval spec).
    await generateOneVideoSuite(page);

    // The scripted OpenAI-compatible endpoint (a private address, allowed by the endpoint policy),
    // evaluated in agentic_general (the default mode) at K = 8 on one sample.
    await addEndpointModel(page, "scripted", llm.baseUrl, "scripted-agent");
    await evaluateOnSuiteAtK8(page, { name: "viewer", model: "scripted", samples: 1 });
    // The run page URL names the run; its one episode is opened by its address (the samples
    // table is covered by the nano eval spec).
    await expect(page).toHaveURL(/\/runs\/[^/?]+/);
    const [, projectId, runId] = /\/projects\/([^/]+)\/runs\/([^/?]+)/.exec(page.url())!;
    const db = createDb(process.env.DATABASE_URL!);
    const episode = await db.episode.findFirstOrThrow({ where: { runId }, select: { id: true } });
    await db.$disconnect();
    await page.goto(`/projects/${projectId}/episodes/${episode.id}`);
    await expect(page.getByTestId("episode-title")).toContainText("Sample");
    await expect(page.getByTestId("video-player").locator("video")).toBeAttached();

    // K ticks at the pixel of their stored time (t_i = i * d / K, SPEC §1.1).
    const ticks = page.getByTestId("overview-tick");
    await expect(ticks).toHaveCount(8);
    const t7 = Number(await ticks.nth(7).getAttribute("data-t"));
    const duration = Number((await page.getByTestId("current-time").textContent())!.split("/")[1]!.replace(" s", ""));
    expect(t7).toBeCloseTo((7 * duration) / 8, 1);
    for (let i = 0; i < 8; i++) {
      const t = Number(await ticks.nth(i).getAttribute("data-t"));
      const b = await box(ticks.nth(i));
      expect(Math.abs(b.x + b.width / 2 - (await xOf(page, t, duration)))).toBeLessThanOrEqual(2);
    }

    // 3 turns x 5 crop windows, at the times the agent asked for, drawn at those pixels.
    const expected = scriptedWindows(duration);
    const windows = page.getByTestId("crop-window");
    await expect(windows).toHaveCount(15);
    for (let turn = 0; turn < 3; turn++) {
      for (let call = 0; call < 5; call++) {
        const w = page.locator(`[data-testid="crop-window"][data-window="${turn}.${call}"]`);
        const [s, e] = expected[turn]![call]!;
        await expect(w).toHaveAttribute("data-start", String(s));
        await expect(w).toHaveAttribute("data-end", String(e));
        const b = await box(w);
        expect(Math.abs(b.x - (await xOf(page, s, duration)))).toBeLessThanOrEqual(2);
        expect(Math.abs(b.x + b.width - (await xOf(page, e, duration)))).toBeLessThanOrEqual(2);
      }
    }
    await expect(page.getByTestId("answer-marker")).toBeVisible();

    // Hover: the window's tool response and frames from the filmstrip sprites.
    const w12 = page.locator('[data-testid="crop-window"][data-window="1.2"]');
    await w12.hover();
    const popover = page.getByTestId("window-popover");
    await expect(popover).toContainText("Turn 2 · call 3");
    await expect(popover.getByTestId("window-summary")).not.toBeEmpty();
    await expect(popover.getByTestId("window-frame").first()).toHaveCSS("background-image", /filmstrip\/\d/);
    await page.screenshot({ path: testInfo.outputPath("episode-viewer-hover-light.png"), fullPage: true });

    // Click: plays that window in a loop; currentTime stays inside it.
    await w12.click();
    await expect(w12).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByTestId("looping")).toBeVisible();
    const [s12, e12] = expected[1]![2]!;
    await expect.poll(() => videoTime(page)).toBeGreaterThan(s12 + 0.2);
    const inLoop = await videoTime(page);
    expect(inLoop).toBeGreaterThanOrEqual(s12 - 0.05);
    expect(inLoop).toBeLessThanOrEqual(e12 + 0.3);
    // The transcript marks the same call.
    await expect(page.locator('[data-call="1.2"]')).toHaveAttribute("aria-current", "true");
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("looping")).toHaveCount(0);
    await page.keyboard.press(" ");

    // ] / [ walk the windows in time order across turns: after 1.2 (starts at 0.42 d) comes 0.3 (0.45 d).
    await page.mouse.move(0, 0);
    await page.keyboard.press("]");
    const w23 = page.locator('[data-testid="crop-window"][data-window="2.2"]');
    await expect(w23).toHaveAttribute("aria-pressed", "true");
    await expect.poll(() => videoTime(page)).toBeCloseTo(expected[2]![2]![0], 1);
    await page.keyboard.press("]");
    await expect(page.locator('[data-testid="crop-window"][data-window="0.3"]')).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await page.keyboard.press("[");
    await page.keyboard.press("[");
    await expect(w12).toHaveAttribute("aria-pressed", "true");
    await expect(page).toHaveURL(/w=1\.2/);
    await expect(page).toHaveURL(/t=\d/);

    // Transcript -> timeline: selecting a call selects and seeks its window.
    await page.getByRole("button", { name: "Select call 1 of turn 1" }).click();
    await expect(page.locator('[data-testid="crop-window"][data-window="0.0"]')).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect.poll(() => videoTime(page)).toBeCloseTo(expected[0]![0]![0], 1);

    // The URL reproduces the view after a reload.
    const url = page.url();
    expect(url).toMatch(/w=0\.0/);
    await page.reload();
    await expect(page.locator('[data-testid="crop-window"][data-window="0.0"]')).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect.poll(() => videoTime(page)).toBeCloseTo(expected[0]![0]![0], 1);

    // Help overlay.
    await page.keyboard.press("?");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toContainText("crop window");

    // Latency of ] (keypress -> window highlighted and currentTime set), 20 presses, logged as a figure.
    await page.keyboard.press("Escape");
    const latencies = await page.evaluate(async () => {
      const video = document.querySelector("video")!;
      const out: number[] = [];
      for (let i = 0; i < 20; i++) {
        const before = document
          .querySelector('[data-testid="crop-window"][aria-pressed="true"]')
          ?.getAttribute("data-window");
        const t0 = performance.now();
        window.dispatchEvent(new KeyboardEvent("keydown", { key: i < 10 ? "]" : "[", bubbles: true }));
        await new Promise<void>((resolve) => {
          const check = () => {
            const sel = document.querySelector('[data-testid="crop-window"][aria-pressed="true"]');
            const start = Number(sel?.getAttribute("data-start"));
            if (sel && sel.getAttribute("data-window") !== before && Math.abs(video.currentTime - start) < 0.05)
              resolve();
            else requestAnimationFrame(check);
          };
          check();
        });
        out.push(performance.now() - t0);
      }
      return out;
    });
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `viewer ] / [ latency over 20 presses: median ${sorted[10]!.toFixed(1)} ms, max ${sorted[19]!.toFixed(1)} ms`,
    );

    // Full transcript (issue 41 item 12): collapsible sections with counts, copy / download as JSON.
    await page.keyboard.press("Escape");
    const transcript = page.getByTestId("full-transcript");
    await transcript.getByText("Full transcript").click();
    const sections = transcript.locator("details[data-section]");
    // The prompts, 4 assistant turns (3 tool rounds and the answer), and per call its arguments
    // and tool response.
    await expect(transcript.locator('[data-section="question"]')).toBeVisible();
    await expect(transcript.locator('details[data-role="assistant"]')).toHaveCount(4);
    await expect(transcript.locator('details[data-role="tool call"]')).toHaveCount(15);
    // The prompts, rendered by the runner's own templates (generic preset, agentic_general): the
    // system prompt, the user prompt with the frames marked, the final-answer request before turn 4.
    const system = transcript.locator('[data-section="system"]');
    await system.locator("summary").click();
    await expect(system.locator("pre")).toContainText("You answer questions about a video. You see 8 frames");
    await expect(system.getByTestId("section-count")).toHaveText(/^[\d,]+ chars$/);
    await expect(transcript.locator('[data-section="question"] summary')).toContainText("User prompt (turn 1)");
    await expect(transcript.locator('[data-section="turn-3.final-request"]')).toHaveCount(1);
    const toolResponse = transcript.locator('[data-section="turn-1.call-2.response"]');
    await toolResponse.locator("summary").click();
    await expect(toolResponse).toHaveAttribute("open", "");
    await expect(toolResponse.locator("pre")).not.toBeEmpty();
    await expect(toolResponse.getByTestId("section-count")).toHaveText(/\d chars$/);
    // (This scripted episode stores no sub-agent output section to open; the unit test covers them.)
    const sectionCount = await sections.count();
    // Copy as JSON: the clipboard holds one JSON entry per section shown.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await transcript.getByRole("button", { name: "Copy as JSON" }).click();
    await expect(transcript.getByTestId("transcript-copy-status")).toHaveText(`Copied ${sectionCount} sections.`);
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
      sections: { role: string; text: string }[];
    };
    expect(copied.sections).toHaveLength(sectionCount);
    expect(copied.sections.filter((x) => x.role === "tool").length).toBe(
      await transcript.locator('details[data-role="tool"]').count(),
    );
    // Download JSON: the same transcript as a file.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      transcript.getByRole("button", { name: "Download JSON" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^transcript-.+\.json$/);
    const file = await download.path();
    const downloaded = JSON.parse(await readFile(file, "utf8")) as { sections: unknown[] };
    expect(downloaded.sections).toHaveLength(sectionCount);

    await page.screenshot({ path: testInfo.outputPath("episode-viewer-light.png"), fullPage: true });
    await page.getByRole("button", { name: "Toggle dark mode" }).click();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await page.screenshot({ path: testInfo.outputPath("episode-viewer-dark.png"), fullPage: true });
  } finally {
    await llm.close();
  }
});
