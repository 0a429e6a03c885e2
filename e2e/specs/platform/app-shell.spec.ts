// The app's plumbing in the browser (issue 41 item 10): the icon is served (no favicon 404), an
// unknown address answers 404 with the app's styled page and a way home, and no hydration error
// is logged while loading the signed-in pages.
import { expect, test } from "@playwright/test";
import { signUpWithProject, unique } from "../support";

test("icon, styled 404 page, no hydration errors", async ({ page, request }) => {
  const favicon = await request.get("/favicon.ico");
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()["content-type"]).toMatch(/image\//);

  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));

  const missing = await page.goto(`/no-such-page-${unique()}`);
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  // Styled by the app (globals.css): the link is the accent button, not a bare browser link.
  const link = page.getByRole("link", { name: "Back to your projects" });
  await expect(link).toBeVisible();
  expect(await link.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)");
  const icon = await page.locator('head link[rel="icon"]').first().getAttribute("href");
  expect(icon).toBeTruthy();
  expect((await request.get(icon!)).status()).toBe(200);

  await signUpWithProject(page, { user: "Shell", emailPrefix: "shell", project: "Shell check" });
  await expect(page.getByTestId("project-name")).toHaveText("Shell check");
  const projectUrl = page.url();
  for (const sub of ["", "/jobs", "/evals", "/models", "/datasets", "/videos"]) {
    await page.goto(`${projectUrl}${sub}`);
    await expect(page.getByTestId("project-name")).toHaveText("Shell check");
    await expect(page.getByTestId("page-skeleton")).toHaveCount(0, { timeout: 15_000 });
  }
  expect(errors.filter((e) => /hydrat/i.test(e))).toEqual([]);
});
