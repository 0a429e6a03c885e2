// Steps several specs share: a fresh account with a project, a one-video needle suite, model
// records. All through the UI, as a user would do them.
import path from "node:path";
import { expect, type Page } from "@playwright/test";

export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export const tab = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Project" }).getByRole("link", { name });

/** The committed default nano checkpoint (absolute, so the worker finds it whatever its working directory). */
export const DEFAULT_CHECKPOINT = path.resolve(
  import.meta.dirname,
  "..",
  "..",
  "packages",
  "nano",
  "checkpoints",
  "default",
);

/** Signs up a new user (email `<prefix>-<unique>@example.test`) and creates a project. */
export async function signUpWithProject(page: Page, o: { user: string; emailPrefix: string; project: string }) {
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill(o.user);
  await page.getByLabel("Email").fill(`${o.emailPrefix}-${unique()}@example.test`);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("button", { name: "New project" }).click();
  await page.getByLabel("Name").fill(o.project);
  await page.getByRole("button", { name: "Create project" }).click();
}

/** Generates the seed-3 needle suite with one 1-minute video (three questions) and waits for its samples. */
export async function generateOneVideoSuite(page: Page) {
  await tab(page, "Datasets").click();
  await expect(page).toHaveURL(/\/datasets$/);
  await page.getByLabel("Seed").fill("3");
  await page.getByLabel("Videos").fill("1");
  await page.getByLabel("Max minutes").fill("1");
  await page.getByRole("button", { name: "Generate suite" }).click();
  const suiteRow = page.getByRole("table", { name: "Datasets" }).getByRole("row", { name: /needle-suite-seed-3/ });
  await expect(suiteRow).toContainText("3", { timeout: 120_000 });
}

/** Registers nano checkpoint models by name from the Models page. */
export async function addNanoModels(page: Page, names: readonly string[], checkpoint = DEFAULT_CHECKPOINT) {
  await tab(page, "Models").click();
  await expect(page).toHaveURL(/\/models$/);
  for (const name of names) {
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Kind").selectOption("NANO_CHECKPOINT");
    await page.getByLabel("Checkpoint directory").fill(checkpoint);
    await page.getByRole("button", { name: "Add model" }).click();
    await expect(page.getByRole("table", { name: "Models" })).toContainText(name);
  }
}
