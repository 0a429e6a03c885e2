import { expect, test } from "@playwright/test";
import { generateOneVideoSuite, signUpWithProject, tab } from "../support";

// Issue 41 item 8: a Training tab lists SFT and RL runs apart from the infrastructure jobs, with
// filters in the URL and the figures of each run; training launches from it; the overview's rows
// are links.
test("Training tab: launch SFT from it, see the run's row and figures, filter, click through", async ({ page }) => {
  test.setTimeout(480_000);
  await signUpWithProject(page, { user: "Tab trainer", emailPrefix: "training-tab", project: "Training tab" });
  await generateOneVideoSuite(page);

  await tab(page, "Training").click();
  await expect(page).toHaveURL(/\/training$/);
  await expect(page.getByRole("table", { name: "Training runs" })).toContainText("No training runs yet.");
  // The suite's launch forms, mounted here too.
  await page.getByRole("button", { name: "Launch training" }).click();
  await expect(page.getByLabel("Training suite")).toHaveValue(/.+/);
  // The RL form mounted here (the suite list already loaded) also starts at the suite's measured
  // max new tokens, not SPEC §3's fallback (issue 41 item 1).
  const rlForm = page.getByRole("form", { name: "Launch an RL run" });
  await rlForm.getByRole("button", { name: "Advanced" }).click();
  await expect(rlForm.getByText(/not SPEC §3: .*Max new tokens \d+ \(SPEC 2048\)/)).toBeVisible();
  await expect(rlForm.getByText(/^changed:/)).toHaveCount(0);
  await rlForm.getByRole("button", { name: "Advanced" }).click(); // closed again: its fields leave the page
  await page.getByLabel("Model name").fill("tab-sft");
  await page.getByLabel("Steps").fill("2");
  await page.getByLabel("Batch").fill("1");
  await page.getByRole("button", { name: "Start training" }).click();
  await expect(page.getByTestId("run-name")).toHaveText("tab-sft");
  const runUrl = page.url();
  await expect(page.getByText("succeeded")).toBeVisible({ timeout: 180_000 });

  // The row: kind, status, last loss, steps done of total, the model it registered.
  await tab(page, "Training").click();
  const table = page.getByRole("table", { name: "Training runs" });
  const row = table.getByRole("row", { name: /tab-sft/ }).first();
  await expect(row).toContainText("SFT");
  await expect(row).toContainText("succeeded");
  await expect(row).toContainText(/loss \d/);
  await expect(row).toContainText("2 / 2");
  await expect(row.getByRole("link", { name: "tab-sft" })).toHaveCount(2); // the run and its model
  // The suite generation and its imports are jobs, not training: only the SFT run is listed.
  await expect(table.getByRole("row")).toHaveCount(2);

  // Issue 41 item 7: the produced model links back to its run, takes a description, and
  // "Evaluate this model" opens the eval form with it ticked.
  await row.getByRole("link", { name: "tab-sft" }).nth(1).click();
  await expect(page).toHaveURL(/\/models#model-/);
  const modelRow = page
    .getByRole("table", { name: "Models" })
    .getByRole("row", { name: /tab-sft/ })
    .first();
  await modelRow.getByRole("button", { name: "Describe" }).click();
  await page.getByLabel("Model description").fill("SFT of the tiny preset, 2 steps");
  await page.getByRole("button", { name: "Save description" }).click();
  await expect(modelRow).toContainText("SFT of the tiny preset, 2 steps");
  await modelRow.getByRole("link", { name: "Evaluate tab-sft" }).click();
  await expect(page).toHaveURL(/\/evals\?model=/);
  await expect(
    page
      .getByRole("form", { name: "Launch an evaluation" })
      .getByRole("group", { name: "Models" })
      .getByLabel("tab-sft"),
  ).toBeChecked();
  await page.goBack();
  await modelRow.getByRole("link", { name: "Training run" }).click();
  await expect(page).toHaveURL(runUrl);
  await tab(page, "Training").click();

  // Filters live in the URL.
  await page.getByLabel("Filter by kind").selectOption("rl");
  await expect(page).toHaveURL(/kind=rl/);
  await expect(table).toContainText("No run matches these filters.");
  await page.getByLabel("Filter by kind").selectOption("sft");
  await page.getByLabel("Filter by status").selectOption("SUCCEEDED");
  await expect(page).toHaveURL(/kind=sft&status=SUCCEEDED/);
  await expect(table.getByRole("row", { name: /tab-sft/ })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Filter by kind")).toHaveValue("sft");
  await expect(table.getByRole("row", { name: /tab-sft/ })).toBeVisible();

  // Click through to the run page.
  await table
    .getByRole("row", { name: /tab-sft/ })
    .getByRole("link")
    .first()
    .click();
  await expect(page).toHaveURL(runUrl);
  await expect(page.getByTestId("run-name")).toHaveText("tab-sft");

  // The overview's recent jobs are links to their runs.
  await tab(page, "Overview").click();
  await page
    .getByRole("link", { name: /tab-sft/ })
    .first()
    .click();
  await expect(page.getByTestId("run-name")).toHaveText("tab-sft");
});
