// The run page's attempt table (issue 39 item 6), rendered by React's server renderer: one row
// per attempt with its worker, core, queue, start, time taken, outcome and reason.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RunAttempts } from "./run-attempts";
import { attemptRows } from "./run-config";

describe("RunAttempts", () => {
  it("lists each attempt with its worker, core, queue and outcome", () => {
    const html = renderToStaticMarkup(
      <RunAttempts
        rows={attemptRows(
          [
            {
              attempt: 1,
              host: "gpu-box",
              pid: 7,
              backend: "cuda",
              device: "NVIDIA H200 · 139 GiB · sm 9.0",
              queue: "gpu",
              startedAt: "2026-11-28T10:00:00.000Z",
              endedAt: "2026-11-28T10:00:30.000Z",
              outcome: "interrupted",
              reason: "its worker was lost",
            },
            {
              attempt: 2,
              host: "cpu-box",
              pid: 8,
              backend: "cpu",
              device: "AMD EPYC · avx2 kernels",
              queue: "cpu",
              startedAt: "2026-11-28T10:01:00.000Z",
              endedAt: "2026-11-28T10:05:00.000Z",
              outcome: "succeeded",
            },
          ],
          true,
        )}
      />,
    );
    const rows = html.split('data-testid="run-attempt"').slice(1);
    expect(rows).toHaveLength(2);
    for (const text of ["gpu-box · pid 7", "cuda · NVIDIA H200 · 139 GiB · sm 9.0", ">gpu<", "30s", "interrupted"]) {
      expect(rows[0]).toContain(text);
    }
    expect(rows[0]).toContain("its worker was lost");
    for (const text of ["cpu-box · pid 8", ">cpu<", "2026-11-28 10:01:00 UTC", "4m 0s", "succeeded"]) {
      expect(rows[1]).toContain(text);
    }
  });
});
