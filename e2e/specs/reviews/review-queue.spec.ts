import fs from "node:fs/promises";
import { expect, test, type Browser, type Page } from "@playwright/test";
import {
  addEndpointModel,
  evaluateOnSuiteAtK8,
  generateOneVideoSuite,
  signUpWithProject,
  tab,
  unique,
} from "../support";
import { startScriptedChatServer } from "../viewer/scripted-chat-server";

/** RFC 4180 rows: quoted cells may hold commas, quotes ("") and line breaks (MCQ options do). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ",") {
      endCell();
    } else if (!quoted && c === "\n") {
      endCell();
      rows.push(row);
      row = [];
    } else {
      cell += c;
    }
  }
  if (cell || row.length) {
    endCell();
    rows.push(row);
  }
  return rows;
}

/** A second account in its own browser context (the colleague the reviewer mentions). */
async function signUpColleague(browser: Browser): Promise<{ page: Page; email: string }> {
  const page = await (await browser.newContext()).newPage();
  const email = `colleague-${unique()}@example.test`;
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Colleague");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/projects$/);
  return { page, email };
}

const videoTime = (page: Page) =>
  page
    .getByTestId("video-player")
    .locator("video")
    .evaluate((v: HTMLVideoElement) => v.currentTime);

test("review queue: build from an eval's wrong answers, review two items by keyboard, score, pinned comment, mention, edit history, export", async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const colleague = await signUpColleague(browser);
  // The scripted agent always answers "A": the suite's open-ended questions come out wrong.
  const llm = await startScriptedChatServer();
  try {
    await signUpWithProject(page, { user: "Reviewer", emailPrefix: "review", project: "Failure review" });
    // A colleague to mention (an editor of the project) and a score to give.
    await tab(page, "Members").click();
    await page.getByLabel("Email").fill(colleague.email);
    await page.getByLabel("Role", { exact: true }).selectOption("EDITOR");
    await page.getByRole("button", { name: "Add member" }).click();
    await expect(page.getByRole("table", { name: "Members" })).toContainText(colleague.email);
    await tab(page, "Reviews").click();
    const addScore = page.getByRole("form", { name: "Add a score" });
    await addScore.getByLabel("Score name").fill("grounding quality");
    await addScore.getByLabel("Minimum").fill("0");
    await addScore.getByLabel("Maximum").fill("5");
    await addScore.getByRole("button", { name: "Add score" }).click();
    await expect(page.getByRole("list", { name: "Score configs" })).toContainText("grounding quality");
    await generateOneVideoSuite(page);
    await addEndpointModel(page, "scripted", llm.baseUrl, "scripted-agent");
    await evaluateOnSuiteAtK8(page, { name: "to review", model: "scripted", samples: 3 });
    await expect(page.getByTestId("run-name")).toBeVisible();

    // 1. A queue from the run's wrong answers (the form's default filter).
    const build = page.getByRole("form", { name: "Build a review queue" });
    await expect(build.getByLabel("Review queue from")).toHaveValue("wrong");
    await build.getByRole("button", { name: "Build review queue" }).click();
    await expect(page).toHaveURL(/\/reviews\/[^/?]+\?item=1$/);
    await expect(page.getByTestId("queue-name")).toContainText("Wrong answers");
    const position = page.getByTestId("queue-position");
    await expect(position).toHaveText(/^1 \/ [2-3]$/);
    const total = Number((await position.textContent())!.split("/")[1]);
    await expect(page.getByRole("list", { name: "Queue items" }).getByRole("listitem")).toHaveCount(total);
    await expect(page.getByTestId("video-player").locator("video")).toBeAttached();

    // 2. First item by keyboard: tag 1 on, status triaged, 10 s forward, then a comment pinned there.
    const tags = page.getByRole("group", { name: "Failure tags" });
    const firstTag = tags.getByRole("button").nth(0);
    const tagName = (await firstTag.textContent())!.replace(/^1/, "").trim();
    await expect(firstTag).toHaveAttribute("aria-pressed", "false");
    await page.keyboard.press("1");
    await expect(firstTag).toHaveAttribute("aria-pressed", "true");
    await page.keyboard.press("t");
    await expect(page.getByRole("radio", { name: /Triaged/ })).toHaveAttribute("aria-checked", "true");
    // s: the score field; a value outside 0-5 is refused before it is sent, Esc drops it.
    await page.keyboard.press("s");
    const score = page.getByRole("spinbutton", { name: /grounding quality/ });
    await expect(score).toBeFocused();
    await score.fill("7");
    await score.press("Enter");
    await expect(page.getByRole("alert").filter({ hasText: "Between 0 and 5" })).toBeVisible();
    await score.press("Escape");
    await expect(score).toHaveValue("");
    await page.keyboard.press("s");
    await score.fill("3.5");
    await score.press("Enter");
    await expect(page.getByTestId("score-set-by")).toContainText("set by Reviewer");
    await score.press("Escape"); // keys drive the page again
    await page.keyboard.press("l");
    await expect(page.getByTestId("current-time")).toHaveText(/^10\.0 s/);
    await page.keyboard.press("c");
    const comment = page.getByLabel("New comment");
    await expect(comment).toBeFocused();
    await comment.pressSequentially("crop misses the needle");
    await comment.press("Control+Enter");
    const comments = page.getByRole("list", { name: "Comments" });
    await expect(comments.getByRole("listitem")).toHaveCount(1);
    await expect(comments).toContainText("crop misses the needle");
    await expect(comments.getByTestId("comment-time")).toHaveText("10.0 s");
    // The pin seeks: move away, then click it.
    await comment.press("Escape");
    await page.keyboard.press("l");
    await expect(page.getByTestId("current-time")).toHaveText(/^20\.0 s/);
    await comments.getByTestId("comment-time").click();
    await expect(page.getByTestId("current-time")).toHaveText(/^10\.0 s/);
    await expect.poll(() => videoTime(page)).toBeCloseTo(10, 0);

    // 3. Next item (n): the URL names it; tag 2, resolved.
    await page.keyboard.press("n");
    await expect(position).toHaveText(`2 / ${total}`);
    await expect(page).toHaveURL(/\?item=2$/);
    const secondTag = tags.getByRole("button").nth(1);
    const secondName = (await secondTag.textContent())!.replace(/^2/, "").trim();
    await page.keyboard.press("2");
    await expect(secondTag).toHaveAttribute("aria-pressed", "true");
    await page.keyboard.press("r");
    await expect(page.getByRole("radio", { name: /Resolved/ })).toHaveAttribute("aria-checked", "true");
    await expect(page.getByRole("progressbar", { name: "Queue progress" })).toBeVisible();
    // A comment that @-mentions the colleague, picked from the suggestions.
    await page.keyboard.press("c");
    await comment.pressSequentially("@Coll");
    await page
      .getByRole("listbox", { name: "Mention a member" })
      .getByRole("option", { name: /Colleague/ })
      .click();
    await comment.pressSequentially("please check the crop");
    await comment.press("Control+Enter");
    await expect(comments.getByRole("listitem")).toHaveCount(1);
    await expect(comments).toContainText("@Colleague please check the crop");
    await expect(comments).toContainText("mentions Colleague");
    await comment.press("Escape");

    // The colleague's bell counts the mention; the inbox opens the item, which marks it read.
    await colleague.page.goto("/projects");
    const bell = colleague.page.getByRole("link", { name: /^Inbox/ });
    await expect(bell).toHaveAccessibleName("Inbox, 1 unread");
    await expect(colleague.page.getByTestId("inbox-unread")).toHaveText("1");
    await bell.click();
    await expect(colleague.page).toHaveURL(/\/inbox$/);
    const mention = colleague.page.getByTestId("inbox-item");
    await expect(mention).toHaveCount(1);
    await expect(mention).toContainText("Reviewer mentioned you on sample");
    await expect(mention).toContainText("Failure review");
    await mention.getByRole("link", { name: "@Colleague please check the crop" }).click();
    await expect(colleague.page).toHaveURL(/\/reviews\/[^/?]+\?item=2$/);
    await expect(colleague.page.getByRole("list", { name: "Comments" })).toContainText("please check the crop");
    await expect(colleague.page.getByTestId("inbox-unread")).toHaveCount(0);
    await expect(bell).toHaveAccessibleName("Inbox");

    // Back (p): the first item kept its tag, status and comment (stored, not page state).
    await page.keyboard.press("p");
    await expect(position).toHaveText(`1 / ${total}`);
    await expect(tags.getByRole("button").nth(0)).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByRole("radio", { name: /Triaged/ })).toHaveAttribute("aria-checked", "true");
    await expect(comments).toContainText("crop misses the needle");
    // A second comment: edited by its author ("(edited)"), then deleted after a confirmation.
    await page.keyboard.press("c");
    await comment.pressSequentially("second thougth");
    await comment.press("Control+Enter");
    await expect(comments.getByRole("listitem")).toHaveCount(2);
    const second = comments.getByRole("listitem").nth(1);
    await second.getByRole("button", { name: "Edit" }).click();
    await second.getByLabel("Edit comment").fill("second thought");
    await second.getByLabel("Edit comment").press("Control+Enter");
    await expect(second).toContainText("second thought");
    // "(edited)" opens the earlier version.
    await second.getByRole("button", { name: "(edited)" }).click();
    const history = second.getByRole("region", { name: "Edit history" });
    await expect(history.getByTestId("comment-version")).toHaveCount(1);
    await expect(history.getByTestId("comment-version")).toContainText("second thougth");
    page.once("dialog", (d) => void d.accept());
    await second.getByRole("button", { name: "Delete" }).click();
    await expect(comments.getByRole("listitem")).toHaveCount(1);
    await expect(comments).not.toContainText("second thought");
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur()); // keys drive the page again
    // An unposted draft survives moving to the next item and back.
    await page.keyboard.press("c");
    await comment.pressSequentially("half a thought");
    await comment.press("Escape");
    await page.keyboard.press("n");
    await expect(position).toHaveText(`2 / ${total}`);
    await page.keyboard.press("p");
    await expect(page.getByLabel("New comment")).toHaveValue("half a thought");
    // The help lists the review keys beside the viewer's.
    await page.keyboard.press("?");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toContainText(
      "toggle the tag with that number",
    );
    await page.keyboard.press("Escape");

    // 4. Export: the CSV and JSON files hold the tags, the pinned comment and the score.
    const [csvDownload] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export CSV" }).click(),
    ]);
    const csv = await fs.readFile((await csvDownload.path())!, "utf8");
    const [header, ...rows] = parseCsv(csv);
    expect(header!.join(",")).toBe(
      "position,episode_id,sample_key,question,answer,prediction,correct,k,tool_calls,status,assignee,tags,comments,score:grounding quality",
    );
    expect(rows).toHaveLength(total);
    const col = (name: string) => header!.indexOf(name);
    expect(rows[0]![col("status")]).toBe("TRIAGED");
    expect(rows[0]![col("tags")]).toBe(tagName);
    expect(rows[0]![col("comments")]).toMatch(/^\[t=10\.0s\] review-[^:]+@example\.test: crop misses the needle$/);
    expect(rows[0]![col("score:grounding quality")]).toBe("3.5");
    expect(rows[1]![col("score:grounding quality")]).toBe("");
    expect(rows[1]![col("status")]).toBe("RESOLVED");
    expect(rows[1]![col("tags")]).toBe(secondName);
    const [jsonDownload] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "JSON" }).click(),
    ]);
    const json = JSON.parse(await fs.readFile((await jsonDownload.path())!, "utf8")) as {
      items: {
        status: string;
        tags: string[];
        comments: { body: string; videoTimeS: number }[];
        scores: Record<string, { value: number }>;
      }[];
    };
    expect(json.items[0]).toMatchObject({ status: "TRIAGED", tags: [tagName] });
    expect(json.items[0]!.scores["grounding quality"]?.value).toBe(3.5);
    expect(json.items[0]!.comments[0]).toMatchObject({ body: "crop misses the needle", videoTimeS: 10 });
    expect(json.items[1]).toMatchObject({ status: "RESOLVED", tags: [secondName] });

    // 5. The overview: the queue's progress and the run's failure breakdown.
    await tab(page, "Reviews").click();
    const queues = page.getByRole("table", { name: "Review queues" });
    await expect(queues).toContainText("Wrong answers");
    await expect(queues).toContainText(`1/${total} resolved · 1 triaged`);
    await expect(page.getByTestId("score-summary")).toHaveText("mean 3.5 · n 1");
    await page.getByLabel("Breakdown run").selectOption({ index: 1 });
    const breakdown = page.getByTestId("breakdown-table");
    await expect(breakdown.getByRole("row", { name: tagName })).toContainText("1");
    await expect(breakdown.getByRole("row", { name: secondName })).toContainText("1");
    // The chart draws every tag's label (recharts skipped every other one), each on the band of
    // its own bar: the count label nearest to a tag's label (by height) is that tag's count.
    const chart = page.getByRole("figure", { name: "Failure breakdown chart" });
    const tagNames = await breakdown.locator("th").allTextContents();
    const ticks = chart.locator("text[data-tag]");
    await expect(ticks).toHaveCount(tagNames.length);
    expect(await ticks.evaluateAll((els) => els.map((e) => e.getAttribute("data-tag")))).toEqual(tagNames);
    const centerY = (b: { y: number; height: number } | null) => (b ? b.y + b.height / 2 : NaN);
    // A count label sits at the end of each drawn bar (a tag with no failure draws no bar).
    const tableCounts = await breakdown
      .locator("tr")
      .evaluateAll((rows) => rows.map((r) => r.querySelector("td")?.textContent ?? ""));
    const counted = tagNames.flatMap((name, i) => (tableCounts[i] !== "0" ? [{ name, i, count: tableCounts[i] }] : []));
    const counts = chart.locator(".recharts-label-list text");
    await expect(counts).toHaveCount(counted.length);
    const countBoxes = await Promise.all(
      (await counts.all()).map(async (c) => [await c.textContent(), centerY(await c.boundingBox())] as const),
    );
    for (const { name, i, count } of counted) {
      const tickY = centerY(await ticks.nth(i).boundingBox());
      const nearest = [...countBoxes].sort((a, b) => Math.abs(a[1] - tickY) - Math.abs(b[1] - tickY))[0]!;
      expect(nearest[0], `count beside "${name}"`).toBe(count);
      expect(Math.abs(nearest[1] - tickY)).toBeLessThan(8);
    }
  } finally {
    await llm.close();
    await colleague.page.context().close();
  }
});
