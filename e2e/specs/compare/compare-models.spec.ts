import { expect, test } from "@playwright/test";
import { addNanoModels, generateOneVideoSuite, signUpWithProject } from "../support";

test("compare two models on one sample: run now, live status, both models' lanes and answers", async ({
  page,
}, testInfo) => {
  // Suite rendering + 2 one-sample runs on the CPU core of one worker.
  test.setTimeout(360_000);

  await signUpWithProject(page, { user: "Comparer", emailPrefix: "compare", project: "Side by side" });
  // One 1-minute video with three questions.
  await generateOneVideoSuite(page);
  // Two model records on the default checkpoint: the comparison only needs two distinct models.
  await addNanoModels(page, ["nano-a", "nano-b"]);

  // The comparison page: find a sample, then run both models on it now.
  await page.goto(page.url().replace(/\/models$/, "/compare"));
  await page.getByLabel("Find a sample").fill("");
  const matches = page.getByRole("list", { name: "Matching samples" }).getByRole("button");
  await expect(matches).toHaveCount(3);
  await matches.first().click();
  await expect(page).toHaveURL(/\/compare\?sample=[^&]+$/);
  await expect(page.getByTestId("compare-sample")).toContainText("Sample");

  const form = page.getByRole("form", { name: "Run now" });
  await form.getByLabel("Model 1").selectOption({ label: "nano-a" });
  await form.getByLabel("Mode 1").selectOption("agentic_general");
  await form.getByLabel("K 1").fill("8");
  await form.getByLabel("Model 2").selectOption({ label: "nano-b" });
  await form.getByLabel("Mode 2").selectOption("direct");
  await form.getByLabel("K 2").fill("8");
  await form.getByRole("button", { name: "Run now" }).click();

  // The URL now holds the sample and both runs; their status goes live to succeeded (SSE).
  await expect(page).toHaveURL(/\/compare\?sample=[^&]+&runs=[^,&]+,[^,&]+$/);
  const table = page.getByRole("table", { name: "Side by side" });
  await expect(table.getByRole("columnheader", { name: /nano-a/ })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: /nano-b/ })).toBeVisible();
  await expect(table.getByText("succeeded")).toHaveCount(2, { timeout: 240_000 });

  // Both answers side by side, and each model's lanes on the shared timeline with its K=8 ticks.
  await expect(page.getByTestId("compare-answer")).toHaveCount(2);
  const lanes = page.getByTestId("timeline-lanes");
  await expect(lanes).toBeVisible();
  const groupA = lanes.locator('[aria-label^="Lanes of 1. nano-a"]');
  const groupB = lanes.locator('[aria-label^="Lanes of 2. nano-b"]');
  await expect(groupA).toHaveCount(1);
  await expect(groupB).toHaveCount(1);
  await expect(groupA.getByTestId("overview-tick")).toHaveCount(8);
  await expect(groupB.getByTestId("overview-tick")).toHaveCount(8);
  // The direct mode makes no tool call: its group has no crop window.
  await expect(groupB.getByTestId("crop-window")).toHaveCount(0);
  await expect(page.getByTestId("video-player")).toBeVisible();

  // A reload reproduces the view from the URL alone.
  await page.reload();
  await expect(page.getByTestId("compare-answer")).toHaveCount(2);
  await page.screenshot({ path: testInfo.outputPath("compare-models.png"), fullPage: true });

  // Issue 41: at 1280 and 1440 wide nothing overflows sideways, the pickers are folded and the
  // comparison (player and side-by-side table) starts within the first viewport.
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.reload();
    await expect(page.getByTestId("compare-answer")).toHaveCount(2);
    await expect(page.getByRole("group", { name: "Existing runs" })).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 0));
    const overflow = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(overflow.scroll, `horizontal overflow at ${width} px`).toBeLessThanOrEqual(overflow.client);
    await expect(page.getByTestId("comparison")).toHaveAttribute("data-layout", "side");
    await expect(table).toBeInViewport();
    await expect(page.getByTestId("compare-answer").first()).toBeInViewport();
    await expect(page.getByTestId("video-player")).toBeInViewport();
    await page.screenshot({ path: testInfo.outputPath(`compare-models-${width}.png`) });
  }

  // The episode viewer's keys move the compare player: l / j seek 10 s, shown by the readout
  // and the playhead.
  const readout = page.getByTestId("current-time");
  await expect(readout).toHaveText(/^0\.0 s \//);
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("l");
  await expect(readout).toHaveText(/^10\.0 s \//);
  await expect(page.getByTestId("lanes-playhead")).toHaveAttribute("data-t", /^(9\.9\d*|10(\.\d+)?)$/);
  await page.keyboard.press("j");
  await expect(readout).toHaveText(/^0\.0 s \//);
  // Hovering a crop window of the agentic model shows the viewer's popover.
  const crop = groupA.getByTestId("crop-window").first();
  if ((await crop.count()) > 0) {
    await crop.hover();
    await expect(page.getByTestId("window-popover")).toBeVisible();
  }
});
