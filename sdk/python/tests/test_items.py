"""What the SDK sends for what a trainer logs: the contract's bounds applied item by item
(packages/shared/src/contracts/ingest.ts), one warning per problem. No server needed."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from paravt_workbench._items import RolloutBuilder, coerce_number, cut_text, json_safe, metric_item, storable_float, utf16_len
from paravt_workbench._problems import Problems


def metric(values, step=3):
    p = Problems()
    vals = {k: (v if type(v) is float else coerce_number(v)) for k, v in values.items()}
    text = metric_item("id-1", step, vals, 1_800_000_000.25, p)
    return (json.loads(text) if text else None), p.messages


def test_metric_item_keeps_finite_numbers_and_drops_the_rest_with_one_warning_each():
    item, problems = metric(
        {"loss": 0.5, "acc": True, "n": 3, "nan": math.nan, "inf": math.inf, "text": "x", "bad name": 1.0}
    )
    assert item["values"] == {"loss": 0.5, "acc": 1.0, "n": 3.0}
    assert item["step"] == 3 and item["id"] == "id-1"
    assert item["at"] == "2027-01-15T08:00:00.250+00:00"
    assert len(problems) == 4
    assert any("'nan'" in m and "non-finite" in m for m in problems)
    assert any("'inf'" in m for m in problems)
    assert any("'text' is a str" in m for m in problems)
    assert any("'bad name' is not accepted" in m for m in problems)


def test_the_same_problem_is_reported_once():
    p = Problems()
    for step in range(5):
        metric_item(f"i{step}", step, {"loss": math.nan}, 0.0, p)
    assert len(p.messages) == 1


def test_metric_names_follow_the_servers_rule_ascii_only_and_trimmed():
    item, problems = metric({" loss ": 1.0, "ünï": 2.0, "a" * 101: 3.0, "train/kl:k8-x.y": 4.0})
    assert item["values"] == {"loss": 1.0, "train/kl:k8-x.y": 4.0}
    assert len(problems) == 2


def test_a_step_outside_int4_drops_the_values():
    for step in (-1, 2**31, "x", 1.5):
        item, problems = metric({"loss": 1.0}, step=step)
        assert item is None and len(problems) == 1
    item, _ = metric({"loss": 1.0}, step=7.0)
    assert item["step"] == 7


def test_nothing_to_send_is_none():
    item, problems = metric({"nan": math.nan})
    assert item is None and len(problems) == 1


def rollout(i=0, **extra):
    base = {
        "index": i,
        "k": 8,
        "sample": {"key": "s1", "question": "q?", "answer": "a", "questionType": "oe", "videoId": "v1"},
    }
    base.update(extra)
    return base


def build(builder, step, rollouts):
    return [json.loads(text) for _, text in builder.build(step, rollouts)]


def test_groups_are_numbered_by_first_appearance_within_a_step_across_calls():
    b = RolloutBuilder(Problems())
    first = build(b, 5, [rollout(0, group="uid-b"), rollout(1, group="uid-a"), rollout(2, group="uid-b")])
    second = build(b, 5, [rollout(3, group="uid-a", advantage=-0.25)])
    terms = [r["rewardTerms"] for r in first + second]
    assert [t["group"] for t in terms] == [0, 1, 0, 1]
    assert [t["groupIndex"] for t in terms] == [0, 0, 1, 1]
    # sizes: b has 2 in the first call; a had 1 then one more in the second call
    assert [t["groupSize"] for t in terms] == [2, 1, 2, 2]
    assert terms[3]["advantage"] == -0.25
    # a new step numbers from 0 again
    other = build(b, 6, [rollout(0, group="uid-a")])
    assert other[0]["rewardTerms"]["group"] == 0


def test_rollout_ids_are_deterministic_from_step_and_index():
    b = RolloutBuilder(Problems())
    items = build(b, 12, [rollout(3), rollout(4, id="mine")])
    assert [r["id"] for r in items] == ["step-12/rollout-3", "mine"]
    again = build(RolloutBuilder(Problems()), 12, [rollout(3)])
    assert again[0]["id"] == items[0]["id"]


def test_missing_indices_continue_after_those_seen_at_the_step():
    b = RolloutBuilder(Problems())
    items = build(b, 1, [rollout(0), {**rollout(), "index": None}, {**rollout(), "index": None}])
    assert [r["index"] for r in items] == [0, 1, 2]
    items = build(b, 1, [{**rollout(), "index": None}])
    assert items[0]["index"] == 3


def test_unknown_keys_are_left_out_with_a_warning_naming_them():
    p = Problems()
    items = build(RolloutBuilder(p), 0, [rollout(0, extra_field=1, turns=[{"rawText": "t", "weird": 2}])])
    assert "extra_field" not in items[0] and "weird" not in items[0]["turns"][0]
    assert any("extra_field" in m for m in p.messages) and any("turns[].weird" in m for m in p.messages)


def test_texts_longer_than_the_contract_are_cut_in_utf16_units():
    p = Problems()
    huge = "😀" * 150_000  # 300,000 UTF-16 units: over the 200,000 of rawText
    items = build(RolloutBuilder(p), 0, [rollout(0, turns=[{"rawText": huge}], finalText="ok")])
    raw = items[0]["turns"][0]["rawText"]
    assert utf16_len(raw) <= 200_000 and raw.endswith("300000 characters in all]")
    assert raw.startswith("😀😀")
    assert any("rawText" in m and "cut" in m for m in p.messages)
    short = cut_text("x" * 300, 100)
    assert utf16_len(short) <= 100 and short.startswith("x") and short.endswith("300 characters in all]")


def test_a_rollout_without_sample_or_k_is_dropped_and_said():
    p = Problems()
    items = build(RolloutBuilder(p), 0, [{"index": 0, "k": 4}, {"index": 1, "sample": {"key": "x"}}])
    assert items == []
    assert any("sample: missing" in m for m in p.messages)
    assert any("k: missing" in m for m in p.messages)


def test_k_defaults_to_the_number_of_overview_timestamps():
    items = build(RolloutBuilder(Problems()), 0, [{**rollout(0), "k": None, "overviewTimestamps": [0, 1, 2]}])
    assert items[0]["k"] == 3


def test_non_finite_numbers_never_reach_the_json():
    p = Problems()
    items = build(
        RolloutBuilder(p),
        0,
        [
            rollout(
                0,
                score=math.nan,
                rewardTerms={"reward": math.inf, "acc": 1, "ok": True, "name": "x"},
                turns=[{"rawText": "", "toolCalls": [{"startS": -1, "endS": 3, "arguments": {"t": math.nan}}]}],
            )
        ],
    )
    item = items[0]
    assert "score" not in item or item["score"] is None
    assert item["rewardTerms"] == {"acc": 1, "ok": True}
    call = item["turns"][0]["toolCalls"][0]
    assert call["startS"] is None and call["endS"] == 3.0 and call["arguments"] == {"t": "nan"}
    assert len(p.messages) >= 4


def test_a_rollout_without_a_video_is_kept_and_said_once():
    p = Problems()
    sample = {"key": "s", "question": "q", "answer": "a", "questionType": "mcq"}
    items = build(RolloutBuilder(p), 0, [{"index": i, "k": 4, "sample": sample} for i in range(3)])
    assert len(items) == 3
    assert sum("videoId" in m for m in p.messages) == 1


def test_a_video_path_is_sent_for_the_server_to_link_and_needs_no_warning():
    p = Problems()
    sample = {"key": "s", "question": "q", "answer": "a", "questionType": "mcq", "videoPath": "/media/v1.mp4"}
    items = build(RolloutBuilder(p), 0, [{"index": 0, "k": 4, "sample": sample}])
    assert items[0]["sample"]["videoPath"] == "/media/v1.mp4"
    assert not any("video" in m for m in p.messages)
    bad = dict(sample, videoPath=42)
    items = build(RolloutBuilder(p), 0, [{"index": 0, "k": 4, "sample": bad}])
    assert "videoPath" not in items[0]["sample"]
    assert any("sample.videoPath" in m for m in p.messages)


def test_duplicate_turn_indices_keep_the_first():
    p = Problems()
    items = build(RolloutBuilder(p), 0, [rollout(0, turns=[{"index": 0, "rawText": "a"}, {"index": 0, "rawText": "b"}])])
    assert [t["rawText"] for t in items[0]["turns"]] == ["a"]
    assert any("appears twice" in m for m in p.messages)


def test_json_safe_turns_trainer_configs_into_json():
    @dataclass
    class Opt:
        lr: float
        path: Path

    cfg = json_safe({"opt": Opt(1e-6, Path("/x")), "betas": (0.9, 0.95), "tags": {"a"}, "bad": math.inf, 3: None})
    assert cfg == {"opt": {"lr": 1e-6, "path": "/x"}, "betas": [0.9, 0.95], "tags": ["a"], "bad": "inf", "3": None}
    json.dumps(cfg, allow_nan=False)


def test_metric_values_are_sent_with_the_16_digits_the_workbench_stores():
    assert storable_float(1 / 6) == 0.1666666666666667 != 1 / 6
    assert storable_float(1 / 3) == 1 / 3  # already 16 digits
    assert storable_float(1.7976931348623157e308) == 1.7976931348623157e308  # would round to inf
    assert storable_float(5e-324) == 5e-324
    item, _ = metric({"x": 1 / 6})
    assert item["values"]["x"] == 0.1666666666666667
