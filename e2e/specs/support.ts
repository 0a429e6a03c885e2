// Steps several specs share: a fresh account with a project, a one-video needle suite, model
// records. All through the UI, as a user would do them.
import fs from "node:fs/promises";
import path from "node:path";
import { createDb } from "@paravt/db";
import { expect, type Page } from "@playwright/test";
import { WORKER_LOG } from "../worker-log";

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
  // Wait on the Samples cell: the row's name ("…-seed-3") already contains a "3", so waiting for
  // the row to contain "3" passed before the import finished (seen in CI under load).
  await expect(suiteRow.getByRole("cell").nth(1)).toHaveText("3", { timeout: 120_000 });
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

/** Registers an OpenAI-compatible endpoint model named `name` (e.g. the scripted chat server). */
export async function addEndpointModel(page: Page, name: string, baseUrl: string, servedModel: string) {
  await tab(page, "Models").click();
  await expect(page).toHaveURL(/\/models$/);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Kind").selectOption("OPENAI_COMPATIBLE");
  await page.getByLabel("Base URL").fill(baseUrl);
  await page.getByLabel("Served model").fill(servedModel);
  await page.getByRole("button", { name: "Add model" }).click();
  await expect(page.getByRole("table", { name: "Models" })).toContainText(name);
}

/**
 * Launches one evaluation of `model` on the one-video suite (agentic_general, the default mode,
 * at K = 8, the first `samples` samples), waits until its run succeeded and opens that run's page.
 */
export async function evaluateOnSuiteAtK8(page: Page, o: { name: string; model: string; samples: number }) {
  await tab(page, "Evaluations").click();
  const form = page.getByRole("form", { name: "Launch an evaluation" });
  await form.getByLabel("Evaluation name").fill(o.name);
  await form.getByRole("group", { name: "Models" }).getByLabel(o.model).check();
  await form.getByRole("group", { name: "Datasets" }).getByLabel("needle-suite-seed-3").check();
  const ks = form.getByRole("group", { name: "Overview frames K" });
  await ks.getByLabel("64").uncheck();
  await ks.getByLabel("8", { exact: true }).check();
  await form.getByLabel("Sample limit").fill(String(o.samples));
  await form.getByRole("button", { name: "Launch evaluation" }).click();
  const runs = page.getByRole("table", { name: "Evaluation runs" });
  await withDiagnosis(page, expect(runs.getByText("succeeded")).toHaveCount(1, { timeout: 120_000 }));
  await page.getByRole("table", { name: "Results matrix" }).getByRole("link").first().click();
}

/**
 * Awaits a UI expectation about runs; if it fails, the error also says what the database holds
 * for the page's project (each run's status and error) and how the e2e worker's log ends, so a CI
 * failure says whether the job failed, never ran, or finished without the page seeing it.
 */
export async function withDiagnosis(page: Page, expectation: Promise<void>): Promise<void> {
  try {
    await expectation;
  } catch (e) {
    const projectId = /\/projects\/([^/?#]+)/.exec(page.url())?.[1];
    const db = createDb(process.env.DATABASE_URL!);
    const stored = projectId
      ? await db.run.findMany({
          where: { projectId },
          orderBy: { createdAt: "asc" },
          select: { name: true, jobName: true, status: true, error: true, createdAt: true, finishedAt: true },
        })
      : [];
    await db.$disconnect();
    const workerLog = await fs.readFile(WORKER_LOG, "utf8").catch(() => "(no worker log)");
    (e as Error).message +=
      `\n\nRuns of project ${projectId ?? "?"} in the database:\n` +
      stored.map((r) => `  ${JSON.stringify(r)}`).join("\n") +
      `\n\nLast lines of the e2e worker's log (${WORKER_LOG}):\n` +
      workerLog.split("\n").slice(-40).join("\n");
    throw e;
  }
}
