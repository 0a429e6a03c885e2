import { expect, test } from "@playwright/test";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test("generate a needle suite from the UI: samples, per-K table, and its video in the library", async ({ page }) => {
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Suite maker");
  await page.getByLabel("Email").fill(`suite-${unique()}@example.test`);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("button", { name: "New project" }).click();
  await page.getByLabel("Name").fill("Needles");
  await page.getByRole("button", { name: "Create project" }).click();
  const nav = page.getByRole("navigation", { name: "Project" });
  await nav.getByRole("link", { name: "Datasets" }).click();

  await page.getByLabel("Seed").fill("7");
  await page.getByLabel("Videos").fill("1");
  await page.getByLabel("Max minutes").fill("1");
  await page.getByRole("button", { name: "Generate suite" }).click();

  // The dataset row fills in live as the worker renders and imports the suite.
  const row = page.getByRole("table", { name: "Datasets" }).getByRole("row", { name: /needle-suite-seed-7/ });
  await expect(row.getByRole("cell").nth(1)).toHaveText("3", { timeout: 90_000 }); // the Samples cell
  await row.getByRole("link", { name: "needle-suite-seed-7" }).click();
  await expect(page.getByTestId("dataset-name")).toHaveText("needle-suite-seed-7");
  await expect(page.getByRole("table", { name: "Answerable from the overview" })).toContainText("K = 64");
  const samples = page.getByRole("table", { name: "Samples" }).getByRole("row");
  await expect(samples).toHaveCount(4); // header + 3 questions

  // Filter by type is in the URL.
  await page.getByLabel("Question type").selectOption("mcq");
  await expect(page).toHaveURL(/type=mcq/);

  // Cold-start SFT of nano on the suite: the run page charts the loss live, then the model exists.
  await page.getByLabel("Model name").fill("nano-e2e");
  await page.getByLabel("Steps").fill("6");
  await page.getByLabel("Batch").fill("1");
  await page.getByRole("button", { name: "Start training" }).click();
  await expect(page.getByTestId("run-name")).toHaveText("nano-e2e");
  await expect(page.getByText("succeeded")).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId("metric-loss")).toContainText("@ step 6");
  await expect(page.getByRole("figure", { name: "loss chart" }).locator("path.recharts-curve")).toBeVisible();
  await nav.getByRole("link", { name: "Models" }).click();
  await expect(page.getByRole("table", { name: "Models" })).toContainText("nano-e2e");
  await page.goBack();
  await page.goBack();

  await nav.getByRole("link", { name: "Videos" }).click();
  const video = page.getByRole("table", { name: "Videos" }).getByRole("row", { name: /needle-suite-seed-7/ });
  await expect(video).toContainText("ready", { timeout: 60_000 });
  await expect(video).toContainText("1:04");
});
