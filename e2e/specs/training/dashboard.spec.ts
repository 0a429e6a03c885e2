import fs from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Launches a short SFT from the dataset page and waits on its run page until it succeeds. */
async function trainSft(page: Page, name: string, lr: string) {
  await page.getByLabel("Model name").fill(name);
  await page.getByLabel("Steps").fill("6");
  await page.getByLabel("Batch").fill("1");
  await page.getByLabel("Learning rate").fill(lr);
  await page.getByRole("button", { name: "Start training" }).click();
  await expect(page.getByTestId("run-name")).toHaveText(name);
  await expect(page.getByText("succeeded")).toBeVisible({ timeout: 120_000 });
}

test("training dashboard: charts of an SFT run, x by wall time, CSV export, overlay of two runs", async ({ page }) => {
  // Suite rendering + two 6-step SFT runs on the CPU core of one worker.
  test.setTimeout(480_000);
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Trainer");
  await page.getByLabel("Email").fill(`train-${unique()}@example.test`);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("button", { name: "New project" }).click();
  await page.getByLabel("Name").fill("Dashboards");
  await page.getByRole("button", { name: "Create project" }).click();
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Datasets" }).click();
  await page.getByLabel("Seed").fill("11");
  await page.getByLabel("Videos").fill("1");
  await page.getByLabel("Max minutes").fill("1");
  await page.getByRole("button", { name: "Generate suite" }).click();
  const row = page.getByRole("table", { name: "Datasets" }).getByRole("row", { name: /needle-suite-seed-11/ });
  await expect(row).toContainText("3", { timeout: 120_000 });
  await row.getByRole("link", { name: "needle-suite-seed-11" }).click();
  // The link navigates client-side: wait for the dataset page before taking its URL.
  await expect(page.getByTestId("dataset-name")).toHaveText("needle-suite-seed-11");
  const datasetUrl = page.url();

  await trainSft(page, "sft-a", "0.001");
  const runA = page.url();
  await page.goto(datasetUrl);
  await trainSft(page, "sft-b", "0.003");

  // Every series train.sft writes has a chart, in its group.
  const loss = page.getByRole("figure", { name: "loss chart" });
  await expect(loss.locator("path.recharts-curve").first()).toBeVisible();
  await expect(page.getByTestId("metric-loss")).toContainText("@ step 6");
  for (const title of ["token accuracy", "tokens per s", "grad norm", "lr", "step time ms"]) {
    await expect(page.getByRole("figure", { name: `${title} chart` })).toBeVisible();
  }
  await expect(page.getByRole("region", { name: "Throughput" })).toBeVisible();

  // Steps are integer ticks (6 steps made 1, 2.25, 3.5, ...); a rate's axis is 0-100 %.
  const xTickValues = loss.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value");
  await expect.poll(async () => (await xTickValues.allTextContents()).length).toBeGreaterThan(1);
  const xTicks = await xTickValues.allTextContents();
  for (const t of xTicks) expect(t).toMatch(/^\d+$/);
  const accuracy = page.getByRole("figure", { name: "token accuracy chart" });
  await expect(accuracy.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value")).toHaveText([
    "0%",
    "25%",
    "50%",
    "75%",
    "100%",
  ]);
  // The tooltip names the series (its title, not the line's internal key).
  const accuracyPlot = accuracy.locator(".recharts-wrapper");
  const accuracyBox = (await accuracyPlot.boundingBox())!;
  await accuracyPlot.hover({ position: { x: accuracyBox.width * 0.5, y: accuracyBox.height / 2 } });
  await expect(accuracy.locator(".recharts-tooltip-wrapper")).toContainText("token accuracy");

  // Search filters the charts; hidden charts stay hidden after a reload (URL) until shown again.
  const search = page.getByLabel("Search metrics");
  await search.fill("grad");
  await expect(page.getByRole("figure", { name: "grad norm chart" })).toBeVisible();
  await expect(loss).toHaveCount(0);
  await search.fill("");
  await expect(loss).toBeVisible();
  await page.getByRole("button", { name: "Hide lr" }).click();
  await expect(page).toHaveURL(/[?&]hide=lr(&|$)/);
  await page.reload();
  await expect(page.getByRole("figure", { name: "lr chart" })).toHaveCount(0);
  await page.getByRole("group", { name: "Hidden charts" }).getByRole("button", { name: "Show lr" }).click();
  await expect(page.getByRole("figure", { name: "lr chart" })).toBeVisible();
  await expect(page).not.toHaveURL(/hide=/);
  // Log scale per chart (loss is positive), kept in the URL.
  await page.getByRole("button", { name: "Log scale: loss" }).click();
  await expect(page.getByRole("button", { name: "Log scale: loss" })).toHaveAttribute("aria-pressed", "true");
  await expect(page).toHaveURL(/[?&]log=loss(&|$)/);
  await expect(page.getByTestId("axis-note-loss")).toHaveCount(0);
  await page.getByRole("button", { name: "Log scale: loss" }).click();
  await expect(page).not.toHaveURL(/log=/);

  // x by wall time is in the URL and survives a reload.
  await page.getByRole("radio", { name: "Wall time" }).click();
  await expect(page).toHaveURL(/x=time/);
  await page.reload();
  await expect(page.getByRole("radio", { name: "Wall time" })).toHaveAttribute("aria-checked", "true");
  await expect(loss.locator("path.recharts-curve").first()).toBeVisible();

  // `s` toggles smoothing (URL too).
  await page.locator("body").press("s");
  await expect(page).toHaveURL(/smooth=0\.6/);
  await expect(page.getByTestId("smoothing-value")).toHaveText("0.60");
  await page.locator("body").press("s");
  await expect(page).not.toHaveURL(/smooth=/);

  // CSV export: the header names the series, one row per step.
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("sft-b-metrics.csv");
  const csv = (await fs.readFile((await download.path())!, "utf8")).trimEnd().split("\n");
  expect(csv[0]).toBe("step,time_s,grad_norm,loss,lr,step_time_ms,token_accuracy,tokens_per_s");
  expect(csv).toHaveLength(7);
  expect(csv.slice(1).map((l) => l.split(",")[0])).toEqual(["1", "2", "3", "4", "5", "6"]);
  for (const line of csv.slice(1))
    expect(line.split(",").every((c) => c !== "" && Number.isFinite(Number(c)))).toBe(true);

  // Overlay: pick the other run, one line per run, legend with both names, and the config diff.
  await page.getByRole("button", { name: "Compare…" }).click();
  await page.getByLabel("sft-a").check();
  await page.getByRole("link", { name: "Overlay 2 runs" }).click();
  await expect(page).toHaveURL(/\/runs\/compare\?runs=/);
  await expect(page.getByRole("heading", { name: "Compare training runs" })).toBeVisible();
  const overlay = page.getByRole("figure", { name: "loss chart" });
  await expect(overlay.locator("path.recharts-curve")).toHaveCount(2);
  await expect(overlay.locator(".recharts-legend-wrapper")).toContainText("sft-a");
  await expect(overlay.locator(".recharts-legend-wrapper")).toContainText("sft-b");
  const diff = page.getByRole("table", { name: "Config diff" });
  await expect(diff.getByRole("row", { name: /^lr/ })).toContainText("0.003");
  await expect(diff.getByRole("row", { name: /^lr/ })).toContainText("0.001");
  await expect(diff.getByRole("row", { name: /^name/ })).toContainText("sft-a");
  await expect(diff.getByRole("row", { name: /^preset/ })).toHaveCount(0);
  // The run names link back to each run's own dashboard.
  await page.getByRole("list", { name: "Compared runs" }).getByRole("link", { name: "sft-a" }).click();
  await expect(page).toHaveURL(runA);
});
