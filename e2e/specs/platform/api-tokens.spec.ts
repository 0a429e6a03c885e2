import { expect, test } from "@playwright/test";
import { signUpWithProject, tab } from "../support";

test("API token with a rate limit: used from the API reference's Try it, refused past its limit, audited", async ({
  page,
}) => {
  await signUpWithProject(page, { user: "Scripter", emailPrefix: "scripts", project: "Scripted" });

  // A READ token allowed 2 requests per minute.
  await tab(page, "API tokens").click();
  await page.getByLabel("Name").fill("notebook");
  await page.getByLabel("Requests per minute").fill("2");
  await page.getByRole("button", { name: "Create token" }).click();
  const secret = (await page.getByTestId("new-token").textContent())!.trim();
  expect(secret).toMatch(/^pvt_/);

  // The reference page documents every operation and calls them with the token.
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "API", exact: true }).click();
  await page.getByLabel("Bearer token for Try it").fill(secret);
  await page.getByText("/whoami", { exact: true }).click();
  const form = page.getByRole("form", { name: "Try ingest-whoami" });
  const status = form.getByTestId("try-status");
  await form.getByRole("button", { name: "Send" }).click();
  await expect(status).toHaveText("200");
  await expect(form).toContainText('"scopes": [');
  await form.getByRole("button", { name: "Send" }).click();
  await expect(form.getByText(/ms$/)).toBeVisible();
  await form.getByRole("button", { name: "Send" }).click();
  await expect(status).toHaveText("429");
  await expect(form).toContainText("Retry-After");

  // The owner sees each use with the status it got.
  await tab(page, "API tokens").click();
  const uses = page.getByRole("table", { name: "Token uses" });
  await expect(uses.getByRole("row", { name: /\/whoami/ })).toHaveCount(3);
  await expect(uses.getByRole("row", { name: /429/ })).toHaveCount(1);
});
