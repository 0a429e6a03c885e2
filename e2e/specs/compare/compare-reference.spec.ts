// Issue 36, "Done when": our evaluation and the reference evaluator's imported output for the same
// samples, side by side on the comparison page. The service path is pinned by
// workers/src/reference-world.int.test.ts; this spec walks it in the browser as a researcher would.
//
// The reference file is built here exactly as the reference evaluator writes it (github
// EvolvingLMMs-Lab/ParaVT): `{summary, results}` from paravt/eval/utils.py::run_dataset (lines
// 646-759), one row per sample from paravt/eval/driver.py::_make_result (lines 320-337), scored by
// driver.py::_score (lines 307-317) with utils.py::extract_letter (lines 110-129), ported below.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { addEndpointModel, evaluateOnSuiteAtK8, generateOneVideoSuite, signUpWithProject } from "../support";
import { startScriptedChatServer } from "../viewer/scripted-chat-server";

/** utils.py::extract_letter, line for line (Python's `re` and JS agree on these ASCII patterns). */
function extractLetter(raw: string): string {
  const text = raw.trim();
  const tagged = /<answer>([\s\S]*?)<\/answer>/.exec(text);
  if (tagged) {
    const inner = tagged[1]!.trim();
    if (inner.length === 1 && "ABCDEFGHIJ".includes(inner)) return inner;
    const letter = /\b([A-J])\b/.exec(inner);
    if (letter) return letter[1]!;
  }
  if (text.length === 1 && "ABCDEFGHIJ".includes(text)) return text;
  const stated = /(?:answer|Answer)\s*(?:is|:)\s*([A-J])/.exec(text);
  if (stated) return stated[1]!;
  const bare = /\b([A-J])\b/.exec(text);
  if (bare) return bare[1]!;
  return text.slice(0, 1);
}

interface SuiteSample {
  key: string;
  answer: string;
}

/**
 * driver.py::_make_result after the MCQ branch of _score. The reference has no open-ended scorer:
 * every sample that is not grounding goes through that branch (utils.py::load_samples sets
 * `is_mcq: True` even for MMVU's open-ended rows), so a needle suite's open-ended answer is read by
 * extract_letter too. The row's id is the sample's key: a generated suite carries no reference
 * ids, so @paravt/benchmarks reference-match.ts matches rows by key.
 */
function makeResult(sample: SuiteSample, final: string, toolCalls: number) {
  const pred = extractLetter(final);
  const correct = pred === sample.answer;
  return {
    id: sample.key,
    answer: sample.answer,
    pred,
    correct,
    tool_calls: toolCalls,
    score: correct ? 1.0 : 0.0,
    full_response: final.slice(0, 500),
  };
}

/** utils.py::run_dataset's summary for an MCQ dataset (`elapsed` is wall time there; any number here). */
function summaryOf(dataset: string, results: ReturnType<typeof makeResult>[], nframes: number) {
  const n = results.length;
  return {
    dataset,
    total: n,
    // `"error" in r`: an [API error: …] final is not an `error` field (driver.py line 475).
    errors: results.filter((r) => "error" in r).length,
    avg_tool_calls: results.reduce((s, r) => s + r.tool_calls, 0) / Math.max(n, 1),
    tool_usage_rate: results.filter((r) => r.tool_calls > 0).length / Math.max(n, 1),
    elapsed: 42.0,
    nframes,
    accuracy: results.filter((r) => r.correct).length / Math.max(n, 1),
    mcq_total: n,
  };
}

/**
 * The final text of an agentic episode whose second request failed: driver.py line 475 writes
 * `[API error: {e}]` with the openai client's APIConnectionError, whose text is "Connection error.";
 * the first turn's crop calls were already counted (max_parallel 5).
 */
const API_ERROR_FINAL = "[API error: Connection error.]";
const CALLS_BEFORE_API_ERROR = 5;

/** The cell of the side-by-side table in row `label` (Answer, Outcome, …) and column `i` (0-based). */
const compareCell = (page: Page, label: string, i: number): Locator =>
  page
    .getByRole("table", { name: "Side by side" })
    .locator("tr", { has: page.getByRole("rowheader", { name: label, exact: true }) })
    .getByRole("cell")
    .nth(i);

test("compare page: our evaluation and the imported reference output on the same samples, API error kept an error", async ({
  page,
}, testInfo) => {
  // Suite rendering + a 3-sample scripted evaluation (15 crop calls each) on one worker.
  test.setTimeout(360_000);
  const llm = await startScriptedChatServer();
  try {
    await signUpWithProject(page, { user: "Reproducer", emailPrefix: "reference", project: "Reference check" });
    // One 1-minute video with three questions (one MCQ, two open-ended for seed 3).
    await generateOneVideoSuite(page);

    // Our side: the scripted OpenAI-compatible endpoint (stands in for vLLM) on all three samples.
    // The reference's side: an external model record for the imported run.
    await addEndpointModel(page, "scripted", llm.baseUrl, "scripted-agent");
    await page.getByLabel("Name", { exact: true }).fill("ParaVT-8B reference");
    await page.getByLabel("Kind").selectOption("EXTERNAL");
    await page.getByLabel("Description").fill("outputs of paravt/eval/driver.py");
    await page.getByRole("button", { name: "Add model" }).click();
    await expect(page.getByRole("table", { name: "Models" })).toContainText("ParaVT-8B reference");
    await evaluateOnSuiteAtK8(page, { name: "reproduce", model: "scripted", samples: 3 });
    await expect(page).toHaveURL(/\/runs\/[^/?]+$/);
    const ourRunUrl = page.url();
    const ourRunId = /\/runs\/([^/?]+)/.exec(ourRunUrl)![1]!;

    // The samples' keys, types and answers as the run page lists them.
    const sampleRows = page.getByRole("table", { name: "Samples" }).locator("tbody tr");
    await expect(sampleRows).toHaveCount(3);
    const samples: (SuiteSample & { type: string })[] = [];
    for (const row of await sampleRows.all()) {
      const cells = row.getByRole("cell");
      samples.push({
        key: (await cells.nth(0).getByRole("link").innerText()).trim(),
        type: (await cells.nth(2).innerText()).trim(),
        answer: (await cells.nth(3).innerText()).trim(),
      });
    }
    const mcq = samples.find((s) => s.type === "mcq");
    const failed = samples.find((s) => s.type !== "mcq");
    if (!mcq || !failed)
      throw new Error(`the seed-3 suite should have MCQ and open-ended samples: ${JSON.stringify(samples)}`);

    // The reference evaluator's output for the same samples: the MCQ answered right, one sample
    // whose request failed, the other answered in words.
    const results = samples.map((s) =>
      s === failed
        ? makeResult(s, API_ERROR_FINAL, CALLS_BEFORE_API_ERROR)
        : makeResult(s, `<think>The frames show it.</think>\n<answer>${s.answer}</answer>`, 5),
    );
    const file = { summary: summaryOf("needle-suite-seed-3", results, 8), results };

    // Import it on the evaluation group page, into the same matrix as our run.
    await page.getByRole("link", { name: "reproduce /" }).click();
    await expect(page.getByTestId("group-name")).toHaveText("reproduce");
    const form = page.getByRole("form", { name: "Import reference output" });
    await form.getByLabel("Run name", { exact: true }).fill("reference driver.py");
    await form.getByLabel("Dataset", { exact: true }).selectOption({ label: "needle-suite-seed-3" });
    await form.getByLabel("Model", { exact: true }).selectOption({ label: "ParaVT-8B reference" });
    await form.getByLabel("Mode", { exact: true }).selectOption("agentic_general");
    await form.getByLabel("K", { exact: true }).fill("8");
    await form.getByLabel("Reference file", { exact: true }).setInputFiles({
      name: "needle-suite-seed-3.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(file, null, 2)),
    });
    await form.getByRole("button", { name: "Import" }).click();
    await expect(page.getByTestId("import-result")).toHaveText(
      "Imported 3 of 3 rows (1 stored as errors: 0 with an error field, 1 [API error] answers); skipped 0.",
    );
    await expect(page.getByRole("table", { name: "Evaluation runs" }).getByText("succeeded")).toHaveCount(2);
    // The group's matrix counts the error beside the reference's value, never as a wrong answer.
    await expect(page.getByRole("table", { name: "Results matrix" }).getByLabel("1 errors")).toHaveCount(1);

    // Back on our run: compare with the imported run; each sample row links to the comparison page.
    await page.goto(ourRunUrl);
    const vs = page.getByLabel("Compare with");
    const importedOption = vs.locator("option", { hasText: "imported" });
    await expect(importedOption).toHaveCount(1);
    const importedRunId = (await importedOption.getAttribute("value"))!;
    await vs.selectOption(importedRunId);
    const compareLinkOf = async (key: string) => {
      const row = sampleRows.filter({ has: page.getByRole("link", { name: key, exact: true }) });
      return (await row.getByRole("link", { name: "compare" }).getAttribute("href"))!;
    };
    await expect(sampleRows.getByRole("link", { name: "compare" })).toHaveCount(3);
    const failedHref = await compareLinkOf(failed.key);
    await sampleRows
      .filter({ has: page.getByRole("link", { name: mcq.key, exact: true }) })
      .getByRole("link", { name: "compare" })
      .click();

    // The MCQ sample: both runs' answers, ours first, the reference's prediction and verdict.
    await expect(page).toHaveURL(new RegExp(`/compare\\?sample=[^&]+&runs=${ourRunId},${importedRunId}$`));
    await expect(page.getByTestId("compare-sample")).toContainText(mcq.key);
    const table = page.getByRole("table", { name: "Side by side" });
    await expect(table.getByRole("columnheader", { name: /scripted/ })).toBeVisible();
    await expect(table.getByRole("columnheader", { name: /ParaVT-8B reference/ })).toBeVisible();
    const answers = page.getByTestId("compare-answer");
    await expect(answers).toHaveCount(2);
    await expect(answers.nth(0)).not.toBeEmpty();
    await expect(answers.nth(1)).toHaveText(mcq.answer);
    await expect(compareCell(page, "Outcome", 1)).toHaveText("correct");
    await expect(compareCell(page, "Tool calls", 1)).toHaveText("5");
    await expect(compareCell(page, "Final response", 1)).toContainText(`<answer>${mcq.answer}</answer>`);
    await page.screenshot({ path: testInfo.outputPath("compare-reference-mcq.png"), fullPage: true });

    // The sample whose request failed in the reference run: an error with its reason, not a wrong
    // answer, beside our run's answer.
    await page.goto(failedHref);
    await expect(page.getByTestId("compare-sample")).toContainText(failed.key);
    await expect(answers).toHaveCount(2);
    await expect(answers.nth(0)).not.toBeEmpty();
    // The row's pred as the driver wrote it: extract_letter of the error text.
    await expect(answers.nth(1)).toHaveText(extractLetter(API_ERROR_FINAL));
    const outcome = compareCell(page, "Outcome", 1);
    await expect(outcome).toContainText("error");
    await expect(outcome).toContainText(API_ERROR_FINAL);
    await expect(outcome).not.toContainText("wrong");
    await expect(compareCell(page, "Outcome", 0)).not.toContainText("error");
    // The run picker says the same: the imported run has an error on this sample, not an answer.
    // (Opened on a comparison, the page folds its pickers into one line: unfold them.)
    await page.getByTestId("compare-pickers").locator("summary").click();
    const picked = page
      .getByRole("group", { name: "Existing runs" })
      .locator("label", { hasText: "ParaVT-8B reference" });
    await expect(picked).toContainText("error");
    await expect(picked).not.toContainText("answered");
    await page.screenshot({ path: testInfo.outputPath("compare-reference-api-error.png"), fullPage: true });
  } finally {
    await llm.close();
  }
});
