import { expect, test, type Browser, type Page } from "@playwright/test";

/** A tab of the project navigation (the overview cards link to the same pages). */
const tab = (page: Page, name: string) => page.getByRole("navigation", { name: "Project" }).getByRole("link", { name });

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function signUp(browser: Browser, name: string): Promise<{ page: Page; email: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = `${name.toLowerCase()}-${unique()}@example.test`;
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByTestId("current-user")).toHaveText(email);
  return { page, email };
}

test("owner creates a project, adds a viewer; the viewer can read but not launch", async ({ browser }) => {
  // The viewer needs an account before it can be added to a project.
  const viewer = await signUp(browser, "Viewer");
  const owner = await signUp(browser, "Owner");

  // Owner creates a project.
  await owner.page.getByRole("button", { name: "New project" }).click();
  await owner.page.getByLabel("Name").fill("Parallel crops ablation");
  await owner.page.getByRole("button", { name: "Create project" }).click();
  await expect(owner.page.getByTestId("project-name")).toHaveText("Parallel crops ablation");
  const projectUrl = owner.page.url();
  const projectId = projectUrl.split("/projects/")[1]!;

  // Owner launches a real job (renders and probes a video) and watches it finish live.
  await tab(owner.page, "Videos").click();
  await owner.page.getByLabel("Duration (seconds)").fill("4");
  await owner.page.getByRole("button", { name: "Generate demo video" }).click();
  const videoRow = owner.page.getByRole("table", { name: "Videos" }).getByRole("row").nth(1);
  await expect(videoRow).toContainText("ready", { timeout: 60_000 });
  await expect(videoRow).toContainText("0:04");

  // Owner adds the viewer.
  await tab(owner.page, "Members").click();
  await owner.page.getByLabel("Email").fill(viewer.email);
  await owner.page.getByLabel("Role", { exact: true }).selectOption("VIEWER");
  await owner.page.getByRole("button", { name: "Add member" }).click();
  await expect(owner.page.getByRole("table", { name: "Members" })).toContainText(viewer.email);

  // The viewer sees the project...
  await viewer.page.goto("/projects");
  await viewer.page.getByRole("link", { name: /Parallel crops ablation/ }).click();
  await expect(viewer.page.getByTestId("project-role")).toHaveText("viewer");
  await tab(viewer.page, "Videos").click();
  await expect(viewer.page.getByRole("table", { name: "Videos" })).toContainText("ready");
  // ...but no launch control, no member management, no token page.
  await expect(viewer.page.getByRole("button", { name: "Generate demo video" })).toHaveCount(0);
  await tab(viewer.page, "Members").click();
  await expect(viewer.page.getByRole("table", { name: "Members" })).toContainText(viewer.email);
  await expect(viewer.page.getByRole("button", { name: "Add member" })).toHaveCount(0);
  await expect(tab(viewer.page, "API tokens")).toHaveCount(0);

  // ...and the API refuses the action even when called directly with the viewer's session.
  const res = await viewer.page.request.post("/api/trpc/videos.createDemo", {
    data: { json: { projectId, durationS: 3 } },
  });
  expect(res.status()).toBe(403);
  const body = await res.json();
  expect(JSON.stringify(body)).toContain("viewer");

  // A stranger does not even learn that the project exists.
  const stranger = await signUp(browser, "Stranger");
  const probe = await stranger.page.request.get(
    `/api/trpc/projects.byId?input=${encodeURIComponent(JSON.stringify({ json: { projectId } }))}`,
  );
  expect(probe.status()).toBe(404);
  await stranger.page.goto(`/projects/${projectId}`);
  await expect(stranger.page.getByRole("alert").filter({ hasText: "Project not found" })).toBeVisible();
});
