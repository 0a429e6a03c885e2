// The benchmark import procedures through tRPC: the registry listing for the form, editors import
// (viewers and strangers cannot), and bad input or a path outside MEDIA_ROOTS is a BAD_REQUEST.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeOf, projectWithRoleCallers } from "../../test-helpers";

const mediaRoot = path.join(os.tmpdir(), `paravt-api-bench-${process.pid}`);
process.env.MEDIA_ROOTS = mediaRoot;

beforeAll(() => fs.mkdir(path.join(mediaRoot, "lvbench"), { recursive: true }));
afterAll(() => fs.rm(mediaRoot, { recursive: true, force: true }));

describe("datasets.importBenchmark", () => {
  it("lists the loader registry with each benchmark's expected files", async () => {
    const fx = await projectWithRoleCallers();
    const list = await fx.asViewer.datasets.benchmarks();
    const videomme = list.find((b) => b.id === "videomme")!;
    expect(videomme.supportsSubtitles).toBe(true);
    expect(videomme.splits).toEqual(["test", "test_subtitles"]);
    expect(videomme.files.map((f) => f.path)).toContain("videomme/test-00000-of-00001.parquet");
    expect(list.map((b) => b.id)).toContain("custom");
    expect(await codeOf(fx.anonymous.datasets.benchmarks())).toBe("UNAUTHORIZED");
  });

  it("lets editors import; viewers and strangers cannot; bad input and foreign paths are refused", async () => {
    const fx = await projectWithRoleCallers();
    const input = {
      projectId: fx.project.id,
      name: "LVBench local",
      benchmark: "lvbench" as const,
      path: path.join(mediaRoot, "lvbench"),
    };
    expect(await codeOf(fx.asViewer.datasets.importBenchmark(input))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asOutsider.datasets.importBenchmark(input))).toBe("NOT_FOUND");
    expect(await codeOf(fx.asEditor.datasets.importBenchmark({ ...input, path: os.homedir() }))).toBe("BAD_REQUEST");
    expect(await codeOf(fx.asEditor.datasets.importBenchmark({ ...input, benchmark: "nope" as "lvbench" }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(fx.asEditor.datasets.importBenchmark({ ...input, subtitles: true }))).toBe("BAD_REQUEST");
    expect(await codeOf(fx.asEditor.datasets.importBenchmark({ ...input, split: "../x" }))).toBe("BAD_REQUEST");
    expect(await fx.asViewer.datasets.list({ projectId: fx.project.id })).toEqual([]);

    const { dataset, runId } = await fx.asEditor.datasets.importBenchmark({ ...input, videoDir: "", split: "" });
    expect(dataset.source).toMatchObject({ kind: "benchmark", benchmark: "lvbench", subtitles: false });
    expect(dataset.source).not.toHaveProperty("videoDir");
    expect(await fx.asViewer.runs.byId({ projectId: fx.project.id, runId })).toMatchObject({
      jobName: "dataset.import",
    });
    const ref = { projectId: fx.project.id, datasetId: dataset.id };
    expect(await codeOf(fx.asViewer.datasets.reimportBenchmark(ref))).toBe("FORBIDDEN");
    const again = await fx.asEditor.datasets.reimportBenchmark(ref);
    expect(again.runId).not.toBe(runId);
    await fx.asEditor.runs.cancel({ projectId: fx.project.id, runId });
    await fx.asEditor.runs.cancel({ projectId: fx.project.id, runId: again.runId });
  });
});
