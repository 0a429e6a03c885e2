// Measures the training dashboard on a 10k-step run: time from navigation to every chart's first
// painted line in headless Chromium, against a running web app (BASE_URL) and its database
// (DATABASE_URL). Seeds its own user, project and run; prints the figures for apps/web/README.md.
import { chromium } from "@playwright/test";
import { db } from "@paravt/shared/server";

const BASE = process.env.BASE_URL ?? "http://localhost:3000";
const STEPS = 10_000;
const NAMES = ["loss", "token_accuracy", "tokens_per_s", "grad_norm", "lr", "step_time_ms"];
const REPEATS = 5;

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  const email = `measure-${Date.now().toString(36)}@example.test`;
  await page.goto(`${BASE}/sign-up`);
  await page.getByLabel("Name").fill("Measure");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("button", { name: "New project" }).click();
  await page.getByLabel("Name").fill("Measure");
  await page.getByRole("button", { name: "Create project" }).click();
  await page.waitForURL(/\/projects\/[^/]+/);
  const projectId = /\/projects\/([^/?#]+)/.exec(page.url())![1]!;

  const run = await db().run.create({
    data: { projectId, kind: "sft", jobName: "train.sft", name: "ten-k", status: "SUCCEEDED", progress: 1 },
  });
  const t0 = Date.now() - STEPS * 1000;
  const rows = [];
  for (let step = 1; step <= STEPS; step++) {
    const wallTime = new Date(t0 + step * 1000);
    const v = [3 / Math.sqrt(step), 1 - 1 / Math.sqrt(step), 900 + 50 * Math.sin(step), Math.random(), 1e-3, 80];
    NAMES.forEach((name, i) => rows.push({ runId: run.id, step, name, value: v[i]!, wallTime }));
  }
  for (let i = 0; i < rows.length; i += 10_000) await db().metric.createMany({ data: rows.slice(i, i + 10_000) });

  const url = `${BASE}/projects/${projectId}/runs/${run.id}`;
  const figures: number[] = [];
  for (let r = 0; r < REPEATS + 1; r++) {
    const start = Date.now();
    await page.goto(url);
    for (const name of NAMES) {
      await page
        .getByRole("figure", { name: `${name.replaceAll("_", " ")} chart` })
        .locator("path.recharts-curve")
        .first()
        // A flat series (lr) is a zero-height path, which Playwright calls hidden: attached = painted.
        .waitFor({ state: "attached" });
    }
    // The first load warms the server (route compilation caches, Prisma connection); not counted.
    if (r > 0) figures.push(Date.now() - start);
  }
  figures.sort((a, b) => a - b);
  console.log(`10k steps x ${NAMES.length} series: navigation -> all charts painted, ms: ${figures.join(", ")}`);
  console.log(`median ${figures[Math.floor(figures.length / 2)]} ms`);
  await browser.close();
  await db().$disconnect();
}

await main();
