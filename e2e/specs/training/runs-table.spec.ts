import { expect, test, type Page } from "@playwright/test";
import { signUpWithProject, tab, unique } from "../support";

/**
 * Creates a finished external SFT run through the ingestion REST API with one `loss` point per
 * step (fast: no worker involved). The page's session cookie authenticates it; Playwright's request
 * API sends no Origin header, which the same-origin guard lets through like any script.
 */
async function ingestSftRun(
  page: Page,
  projectId: string,
  o: { name: string; config: Record<string, unknown>; losses: number[] },
): Promise<string> {
  const api = `/api/v1/projects/${projectId}/external-runs`;
  const created = await page.request.post(api, {
    data: { clientId: `${o.name}-${unique()}`, name: o.name, kind: "sft", config: o.config },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const runId = ((await created.json()) as { run: { id: string } }).run.id;
  const items = o.losses.map((loss, i) => ({ id: `step-${i + 1}`, step: i + 1, values: { loss } }));
  const metrics = await page.request.post(`${api}/${runId}/metrics`, { data: { items } });
  expect(metrics.ok(), await metrics.text()).toBe(true);
  const done = await page.request.post(`${api}/${runId}/status`, { data: { status: "SUCCEEDED" } });
  expect(done.ok(), await done.text()).toBe(true);
  return runId;
}

// Issue 41 item 11: the Training tab's runs table, W&B style: columns picked from the runs'
// settings and metric summaries, sorted by a metric, filtered, grouped by a setting, two runs
// overlaid; the whole view is in the URL and survives a reload.
test("runs table: columns, sort by a metric, filter, group by a setting, overlay two runs", async ({ page }) => {
  await signUpWithProject(page, { user: "Table reader", emailPrefix: "runs-table", project: "Runs table" });
  await expect(page.getByTestId("project-name")).toHaveText("Runs table");
  const projectId = /\/projects\/([^/?#]+)/.exec(page.url())![1]!;
  // last loss / best loss: alpha 1.5 / 1.2, beta 0.6 / 0.6, gamma 0.9 / 0.9.
  const alpha = await ingestSftRun(page, projectId, {
    name: "rt-alpha",
    config: { lr: 0.001, preset: "tiny" },
    losses: [2, 1.2, 1.5],
  });
  const beta = await ingestSftRun(page, projectId, {
    name: "rt-beta",
    config: { lr: 0.003, preset: "small" },
    losses: [1.8, 0.6],
  });
  await ingestSftRun(page, projectId, { name: "rt-gamma", config: { lr: 0.001, preset: "tiny" }, losses: [2.5, 0.9] });

  await tab(page, "Training").click();
  const table = page.getByRole("table", { name: "Training runs" });
  const runRows = table.locator('[data-testid^="training-run-"]');
  await expect(runRows).toHaveCount(3);
  await expect(table.getByRole("row", { name: /rt-alpha/ })).toContainText("loss 1.500");
  await expect(table.getByRole("row", { name: /rt-alpha/ })).toContainText("SFT · external");

  // Columns: the last loss and the preset setting, from the picker.
  await page.getByRole("button", { name: /^Columns/ }).click();
  const picker = page.getByRole("dialog", { name: "Columns" });
  // Clicked, then awaited: a box is ticked once the URL holds the column (not at the click).
  const lossBox = picker.getByRole("group", { name: "Summary" }).getByLabel("loss", { exact: true });
  await lossBox.click();
  await expect(lossBox).toBeChecked();
  const presetBox = picker.getByRole("group", { name: "Settings" }).getByLabel("preset", { exact: true });
  await presetBox.click();
  await expect(presetBox).toBeChecked();
  await page.keyboard.press("Escape");
  await expect(picker).toHaveCount(0);
  await expect(page).toHaveURL(/col=last:loss/);
  await expect(page).toHaveURL(/col=config:preset/);
  const lossHeader = table.getByRole("columnheader", { name: "loss", exact: true });
  await expect(lossHeader).toBeVisible();

  // Sort by the metric: ascending, then descending.
  await lossHeader.getByRole("button").click();
  await expect(lossHeader).toHaveAttribute("aria-sort", "ascending");
  await expect(runRows.nth(0)).toContainText("rt-beta");
  await expect(runRows.nth(1)).toContainText("rt-gamma");
  await expect(runRows.nth(2)).toContainText("rt-alpha");
  await lossHeader.getByRole("button").click();
  await expect(lossHeader).toHaveAttribute("aria-sort", "descending");
  await expect(page).toHaveURL(/sort=-last:loss/);
  await expect(runRows.nth(0)).toContainText("rt-alpha");

  // Filter: a setting equal to a value, then also a metric below a bound.
  const filter = page.getByLabel("Filter runs");
  await filter.fill("preset=tiny");
  await expect(runRows).toHaveCount(2);
  await expect(table).not.toContainText("rt-beta");
  await filter.fill("preset=tiny loss<1");
  await expect(runRows).toHaveCount(1);
  await expect(runRows.first()).toContainText("rt-gamma");
  await expect(page).toHaveURL(/[?&]q=preset%3Dtiny\+loss%3C1/);
  await filter.fill("");
  await expect(runRows).toHaveCount(3);

  // Group by the preset: a header row per value with its count and the mean of the last loss.
  await page.getByLabel("Group by").selectOption("config:preset");
  await expect(page).toHaveURL(/group=config:preset/);
  const small = table.getByRole("row", { name: /preset = small/ });
  const tiny = table.getByRole("row", { name: /preset = tiny/ });
  await expect(small).toContainText("1 run");
  await expect(small).toContainText("mean 0.600");
  await expect(tiny).toContainText("2 runs");
  await expect(tiny).toContainText("mean 1.20"); // (1.5 + 0.9) / 2

  // Tick two runs to overlay.
  await table.getByLabel("Overlay rt-alpha").click();
  await expect(table.getByLabel("Overlay rt-alpha")).toBeChecked();
  await table.getByLabel("Overlay rt-beta").click();
  await expect(page).toHaveURL(new RegExp(`sel=${alpha},${beta}`));

  // A reload keeps the whole view: columns, sort, group and the ticked runs.
  await page.reload();
  await expect(lossHeader).toHaveAttribute("aria-sort", "descending");
  await expect(table.getByRole("columnheader", { name: "preset", exact: true })).toBeVisible();
  await expect(tiny).toContainText("mean 1.20");
  await expect(page.getByLabel("Group by")).toHaveValue("config:preset");
  await expect(table.getByLabel("Overlay rt-alpha")).toBeChecked();
  await expect(table.getByLabel("Overlay rt-beta")).toBeChecked();
  await expect(table.getByLabel("Overlay rt-gamma")).not.toBeChecked();

  // The overlay page draws both runs.
  await page.getByRole("link", { name: "Overlay 2 runs" }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/compare\\?runs=${alpha},${beta}$`));
  await expect(page.getByRole("heading", { name: "Compare training runs" })).toBeVisible();
  const compared = page.getByRole("list", { name: "Compared runs" });
  await expect(compared).toContainText("rt-alpha");
  await expect(compared).toContainText("rt-beta");
  await expect(page.getByRole("figure", { name: "loss chart" }).locator("path.recharts-curve")).toHaveCount(2);
});
