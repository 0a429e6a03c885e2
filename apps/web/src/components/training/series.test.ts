import { describe, expect, it } from "vitest";
import { dashboardParamsFrom, dashboardSearch, toggleId } from "./dashboard-params";
import { emaSmooth, formatFor, groupCharts, groupOf, isRate, lineLabel, visiblePanels, yAxisFor } from "./series";

/** Every series train.sft writes (workers/src/handlers/handle-train-sft.ts). */
const SFT = ["loss", "token_accuracy", "tokens_per_s", "step_time_ms", "grad_norm", "lr"];
/** Every series train.rl writes (handle-train-rl.ts: summaryMetrics, the step's own, val_*). */
const RL_SUMMARY = [
  "reward_mean",
  "reward_std",
  "reward_acc",
  "reward_format",
  "reward_tool",
  "format_compliance",
  "tool_call_rate",
  "parallel_calls_per_turn",
  "turns_used",
  "error_rate",
  "truncated_turn_rate",
  "accuracy_k4",
  "accuracy_k16",
];
const RL = [
  ...RL_SUMMARY,
  ...["kl", "entropy", "clip_fraction", "grad_norm", "loss", "pg_loss", "lr"],
  ...["rollout_time_ms", "update_time_ms", "step_time_ms", "tokens_per_s", "update_tokens_per_s"],
  ...RL_SUMMARY.map((n) => `val_${n}`),
];

describe("groupCharts", () => {
  it("groups SFT series and gathers *_k<K> series into one chart per base", () => {
    const groups = groupCharts([
      "accuracy_k16",
      "accuracy_k4",
      "clip_fraction",
      "format_compliance",
      "grad_norm",
      "kl",
      "loss",
      "reward_mean",
      "step_time_ms",
      "tokens_per_s",
      "weird",
    ]);
    expect(groups.map((g) => g.id)).toEqual([
      "loss",
      "reward",
      "format",
      "by-k",
      "policy",
      "optimizer",
      "throughput",
      "other",
    ]);
    expect(groups[0]!.charts.map((c) => c.id)).toEqual(["loss"]);
    expect(groups[4]!.charts.map((c) => c.id)).toEqual(["clip_fraction", "kl"]);
    expect(groups[3]!.charts).toEqual([
      {
        id: "accuracy_by_k",
        title: "accuracy by K",
        series: [
          { name: "accuracy_k4", label: "K=4" },
          { name: "accuracy_k16", label: "K=16" },
        ],
      },
    ]);
  });

  it("puts every series the trainers write in the group it belongs to (none in Other)", () => {
    const ids = (names: string[]) =>
      Object.fromEntries(groupCharts([...names].sort()).map((g) => [g.id, g.charts.map((c) => c.id)]));
    expect(ids(SFT)).toEqual({
      loss: ["loss", "token_accuracy"],
      optimizer: ["grad_norm", "lr"],
      throughput: ["step_time_ms", "tokens_per_s"],
    });
    expect(ids(RL)).toEqual({
      loss: ["loss", "pg_loss"],
      reward: ["reward_acc", "reward_format", "reward_mean", "reward_std", "reward_tool"],
      format: [
        "error_rate",
        "format_compliance",
        "parallel_calls_per_turn",
        "tool_call_rate",
        "truncated_turn_rate",
        "turns_used",
      ],
      "by-k": ["accuracy_by_k"],
      policy: ["clip_fraction", "entropy", "kl"],
      optimizer: ["grad_norm", "lr"],
      throughput: ["rollout_time_ms", "step_time_ms", "tokens_per_s", "update_time_ms", "update_tokens_per_s"],
      validation: [
        "val_error_rate",
        "val_format_compliance",
        "val_parallel_calls_per_turn",
        "val_reward_acc",
        "val_reward_format",
        "val_reward_mean",
        "val_reward_std",
        "val_reward_tool",
        "val_tool_call_rate",
        "val_truncated_turn_rate",
        "val_turns_used",
        "val_accuracy_by_k",
      ],
    });
    // Ingested names with other separators group like their words.
    expect(groupOf("train/loss")).toBe("loss");
    expect(groupOf("val/loss")).toBe("validation");
    expect(groupOf("eval.accuracy_k8")).toBe("validation");
    expect(groupOf("learning-rate")).toBe("optimizer");
  });

  it("formats rates as percentages", () => {
    expect(formatFor("token_accuracy")(0.5)).toBe("50.0%");
    expect(formatFor("lr")(0.001)).toBe("1.0e-3");
    expect(formatFor("reward_acc")(0.5)).toBe("0.500");
  });
});

describe("y axis per metric", () => {
  it("knows the rates among the trainers' series", () => {
    expect(RL.filter(isRate).sort()).toEqual(
      [
        "accuracy_k16",
        "accuracy_k4",
        "clip_fraction",
        "error_rate",
        "format_compliance",
        "tool_call_rate",
        "truncated_turn_rate",
        "val_accuracy_k16",
        "val_accuracy_k4",
        "val_error_rate",
        "val_format_compliance",
        "val_tool_call_rate",
        "val_truncated_turn_rate",
      ].sort(),
    );
    expect(SFT.filter(isRate)).toEqual(["token_accuracy"]);
    for (const n of ["learning_rate", "lr", "frame_rate", "reward_acc"]) expect(isRate(n)).toBe(false);
  });

  it("draws a rate on a fixed 0-100 % axis, even when it stayed at 0 (never 400 %)", () => {
    const axis = yAxisFor("format_compliance", [0, 0, 0], false);
    expect(axis).toMatchObject({ scale: "linear", domain: [0, 1], ticks: [0, 0.25, 0.5, 0.75, 1], note: null });
    expect(axis.ticks!.map(axis.tick)).toEqual(["0%", "25%", "50%", "75%", "100%"]);
    expect(axis.value(0.975)).toBe("97.5%");
    // Anything else keeps recharts' automatic domain.
    const loss = yAxisFor("loss", [2.5, 1.2], false);
    expect(loss.domain).toBeUndefined();
    expect(loss.ticks).toBeUndefined();
  });

  it("draws a log scale only over positive values and says why not otherwise", () => {
    expect(yAxisFor("loss", [2.5, 0.01], true)).toMatchObject({ scale: "log", domain: ["auto", "auto"], note: null });
    const kl = yAxisFor("kl", [0.002, 0, -0.001], true);
    expect(kl.scale).toBe("linear");
    expect(kl.note).toBe("log scale needs values above 0 (min -0.00100): linear");
    const rate = yAxisFor("tool_call_rate", [0, 0.5], true);
    expect(rate).toMatchObject({ scale: "linear", domain: [0, 1] });
    expect(rate.note).toMatch(/needs values above 0/);
    expect(yAxisFor("loss", [], true).note).toBe("log scale needs values: linear");
  });

  it("names every line (tooltip, legend): the metric, its K, the run in an overlay", () => {
    const s = { name: "format_compliance", label: "format compliance" };
    expect(lineLabel({ overlay: false, runName: "a", family: false, series: s })).toBe("format compliance");
    expect(lineLabel({ overlay: true, runName: "run a", family: false, series: s })).toBe("run a · format compliance");
    const k = { name: "accuracy_k16", label: "K=16" };
    expect(lineLabel({ overlay: false, runName: "a", family: true, series: k })).toBe("K=16");
    expect(lineLabel({ overlay: true, runName: "run b", family: true, series: k })).toBe("run b · K=16");
  });
});

describe("visiblePanels", () => {
  const groups = groupCharts([...SFT].sort()); // the dashboard sorts the names
  const ids = (v: ReturnType<typeof visiblePanels>) => v.groups.flatMap((g) => g.charts.map((c) => c.id));

  it("filters charts by every word of the query (title, name or group)", () => {
    expect(visiblePanels(groups, "  ", [])).toEqual({ groups, hidden: [], matching: SFT.length });
    expect(ids(visiblePanels(groups, "token acc", []))).toEqual(["token_accuracy"]);
    expect(ids(visiblePanels(groups, "TOKEN_ACC", []))).toEqual(["token_accuracy"]);
    expect(ids(visiblePanels(groups, "throughput", []))).toEqual(["step_time_ms", "tokens_per_s"]);
    const none = visiblePanels(groups, "nothing like it", []);
    expect(none).toEqual({ groups: [], hidden: [], matching: 0 });
  });

  it("leaves hidden charts out, lists the ones that match, drops emptied groups", () => {
    const v = visiblePanels(groups, "", ["grad_norm", "lr"]);
    expect(v.groups.map((g) => g.id)).toEqual(["loss", "throughput"]);
    expect(v.hidden.map((c) => c.id)).toEqual(["grad_norm", "lr"]);
    expect(v.matching).toBe(6);
    expect(visiblePanels(groups, "loss", ["grad_norm", "lr"]).hidden).toEqual([]);
  });
});

describe("emaSmooth", () => {
  it("is the identity at weight 0 and debiased from the first point", () => {
    const pts = [4, 0, 4, 0].map((value, step) => ({ step, value }));
    expect(emaSmooth(pts, 0)).toEqual(pts);
    const s = emaSmooth(pts, 0.5).map((p) => p.value);
    expect(s[0]).toBe(4); // debiased: not pulled toward 0
    // acc: 2, 1, 2.5, 1.25 over (1 - 0.5^n): 0.5, 0.75, 0.875, 0.9375
    expect(s[1]).toBeCloseTo(1 / 0.75, 12);
    expect(s[3]).toBeCloseTo(1.25 / 0.9375, 12);
  });
});

describe("dashboard params", () => {
  it("round-trips smoothing, x and zoom through the URL and keeps other parameters", () => {
    const search = dashboardSearch(new URLSearchParams("runs=a,b"), {
      smooth: 0.6,
      x: "time",
      zoom: { from: 10, to: 20.5 },
      log: ["loss", "kl"],
      hidden: ["train/lr"],
    });
    expect(search).toBe("?runs=a,b&smooth=0.6&x=time&from=10&to=20.5&log=kl,loss&hide=train/lr");
    expect(dashboardParamsFrom(new URLSearchParams(search))).toEqual({
      smooth: 0.6,
      x: "time",
      zoom: { from: 10, to: 20.5 },
      log: ["kl", "loss"],
      hidden: ["train/lr"],
    });
    expect(toggleId(["kl"], "loss")).toEqual(["kl", "loss"]);
    expect(toggleId(["kl", "loss"], "kl")).toEqual(["loss"]);
  });

  it("drops values out of range", () => {
    expect(dashboardParamsFrom(new URLSearchParams("smooth=7&x=bogus&from=5&to=1"))).toEqual({
      smooth: 0.99,
      x: "step",
      zoom: null,
      log: [],
      hidden: [],
    });
  });
});
