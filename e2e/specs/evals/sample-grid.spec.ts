import { expect, test, type Locator, type Page } from "@playwright/test";
import { addEndpointModel, evaluateOnSuiteAtK8, generateOneVideoSuite, signUpWithProject, tab } from "../support";
import { startScriptedChatServer } from "../viewer/scripted-chat-server";

/** Episode links of the samples table once its query has answered (the empty-state row has none). */
async function tableCount(page: Page): Promise<number> {
  const samples = page.getByRole("table", { name: "Samples" });
  await expect(samples).toHaveAttribute("aria-busy", "false");
  return samples
    .locator("tbody tr")
    .filter({ has: page.locator('a[href*="/episodes/"]') })
    .count();
}

/** Cards of the sample grid once its query has answered. */
async function gridCards(page: Page): Promise<Locator> {
  const grid = page.getByRole("list", { name: "Sample grid" });
  await expect(grid).toHaveAttribute("aria-busy", "false");
  return grid.getByTestId("sample-card");
}

async function showView(page: Page, view: "Table" | "Grid") {
  const radio = page.getByRole("radiogroup", { name: "Samples view" }).getByRole("radio", { name: view });
  await radio.click();
  await expect(radio).toHaveAttribute("aria-checked", "true");
}

test("sample grid of an eval run: same samples and outcomes as the table, filmstrip and timeline, keyboard, episode", async ({
  page,
}) => {
  test.setTimeout(300_000);
  // The scripted endpoint of the viewer spec: 3 tool rounds of 5 crop windows, then an answer.
  const llm = await startScriptedChatServer();
  try {
    await signUpWithProject(page, { user: "Grid", emailPrefix: "grid", project: "Sample grid" });
    await generateOneVideoSuite(page);
    // The cards draw tiles from the video's filmstrip: wait for its sprites (the video is READY
    // after the assets job) before anything reads the grid.
    await tab(page, "Videos").click();
    await expect(
      page.getByRole("table", { name: "Videos" }).getByRole("row", { name: /needle-suite-seed-3/ }),
    ).toContainText("ready", { timeout: 60_000 });
    await addEndpointModel(page, "scripted", llm.baseUrl, "scripted-agent");
    // Three samples (the suite's three questions), agentic_general at K = 8.
    await evaluateOnSuiteAtK8(page, { name: "grid", model: "scripted", samples: 3 });
    await expect(page).toHaveURL(/\/runs\/[^/?]+/);

    // The table first (the default view), then the grid: one card per row.
    const total = await tableCount(page);
    expect(total).toBe(3);
    await showView(page, "Grid");
    await expect(page).toHaveURL(/view=grid/);
    const cards = await gridCards(page);
    await expect(cards).toHaveCount(total);

    // A card: filmstrip tiles from the sprite sheets (the tile nearest each overview frame), the
    // K = 8 overview ticks and the 15 crop windows on the mini timeline, the tool-call count.
    const first = cards.first();
    const tile = first.getByTestId("card-tile").first();
    await expect(tile).toHaveCSS("background-image", /\/filmstrip\/\d/);
    await expect(tile).toHaveAttribute(
      "title",
      /^nearest filmstrip tile, t=\d+\.\d s \(overview frame at \d+\.\d s\)$/,
    );
    await expect(first.getByTestId("card-tick")).toHaveCount(8);
    await expect(first.getByTestId("card-window")).toHaveCount(15);
    await expect(first.getByTestId("card-tool-calls")).toHaveText(/^\d+ tool calls?$/);

    // Outcome filters drive both views: each outcome's count is the same in the grid and the table,
    // and the outcomes partition the run.
    // The chips a filtered card may show: "wrong" also holds an answer without a verdict, as in the table.
    const chips: Record<string, string[]> = { Correct: ["correct"], Wrong: ["wrong", "no verdict"], Error: ["error"] };
    let sum = 0;
    for (const outcome of ["Correct", "Wrong", "Error"]) {
      const radio = page.getByRole("radio", { name: outcome, exact: true });
      await radio.click();
      await expect(page).toHaveURL(new RegExp(`outcome=${outcome.toLowerCase()}`));
      await expect(radio).toHaveAttribute("aria-checked", "true");
      const inGrid = await (await gridCards(page)).count();
      const chip = chips[outcome]!.map((k) => `[data-outcome="${k}"]`).join(", ");
      await expect((await gridCards(page)).locator(`[data-testid="card-outcome"]:is(${chip})`)).toHaveCount(inGrid);
      await showView(page, "Table");
      await expect(page).toHaveURL(new RegExp(`outcome=${outcome.toLowerCase()}`));
      expect(await tableCount(page)).toBe(inGrid);
      await showView(page, "Grid");
      sum += inGrid;
    }
    expect(sum).toBe(total);
    // Clearing the filters keeps the grid.
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(/view=grid/);
    await expect(page).not.toHaveURL(/outcome=/);
    await expect(await gridCards(page)).toHaveCount(total);

    // Keyboard: arrows move the focus between cards, Enter opens the focused card's episode, and
    // Back returns to the grid with that card remembered.
    const all = await gridCards(page);
    const second = await all.nth(1).getAttribute("href");
    expect(second).toMatch(/\/episodes\//);
    await all.first().focus();
    await page.keyboard.press("ArrowRight");
    await expect(all.nth(1)).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`${second!}$`));
    await expect(page.getByTestId("episode-title")).toContainText("Sample");
    await page.goBack();
    await expect(page).toHaveURL(/view=grid/);
    await expect((await gridCards(page)).nth(1)).toHaveAttribute("aria-current", "true");

    // A click opens the episode page.
    const href = await all.first().getAttribute("href");
    await all.first().click();
    await expect(page).toHaveURL(new RegExp(`${href!}$`));
    await expect(page.getByTestId("episode-title")).toContainText("Sample");

    // The dataset's grid: one card per sample (the suite's three questions), opening the
    // comparison page of its sample.
    await tab(page, "Datasets").click();
    await page.getByRole("table", { name: "Datasets" }).getByRole("link", { name: "needle-suite-seed-3" }).click();
    await expect(page.getByTestId("dataset-name")).toHaveText("needle-suite-seed-3");
    await showView(page, "Grid");
    const datasetCards = await gridCards(page);
    await expect(datasetCards).toHaveCount(3);
    await expect(datasetCards.first().getByTestId("card-tile").first()).toHaveAttribute("title", /^filmstrip tile, t=/);
    await datasetCards.first().click();
    await expect(page).toHaveURL(/\/compare\?sample=/);
  } finally {
    await llm.close();
  }
});
