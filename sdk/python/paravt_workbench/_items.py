"""Turns what the trainer logs into ingestion items the server accepts.

The server validates a batch with the API's zod schemas (packages/shared/src/contracts/ingest.ts)
and refuses the WHOLE batch (HTTP 422) for one value out of its bounds, and JSON cannot carry NaN
at all. So the SDK applies the same bounds here, item by item, and says what it changed: a
non-finite metric value or an unusable name is dropped, a text longer than its limit is cut, an
unknown key is left out, each with one warning per problem (``Problems``). What reaches the
server is then valid, and its per-item answers (duplicate, conflict, invalid) are the only
refusals left. Every item is serialized here once; batches are joined from these texts.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
import operator
import re
from collections import OrderedDict
from datetime import datetime, timezone
from pathlib import PurePath
from typing import Any, Dict, Hashable, List, Mapping, Optional, Tuple

from ._problems import Problems

# ----- bounds of the API's contracts (packages/shared/src/contracts/ingest.ts) -----

#: Metric names: letters, digits and _ . / : - (JavaScript's \w is ASCII only), at most 100.
METRIC_NAME = re.compile(r"^[\w./:-]+$", re.ASCII)
MAX_METRIC_NAME = 100
#: Steps are int4 in Postgres.
MAX_STEP = 2**31 - 1
#: rolloutIndex = step * 1000 + index is an int4 too (contracts/runs.ts MAX_ROLLOUT_STEP).
MAX_ROLLOUT_STEP = (2**31 - 1000) // 1000
MAX_ROLLOUT_INDEX = 999
MAX_K = 256
MAX_CLIENT_ID = 200
QUESTION_TYPES = ("mcq", "tvg", "oe")
#: The body of a request may nest at most 64 levels (rest/handler.ts); items sit 3 deep.
MAX_JSON_DEPTH = 48

# The SDK's own rollout keys: the GRPO group (any hashable) and the update's advantage.
SDK_ROLLOUT_KEYS = ("group", "advantage")


class Unusable:
    """A metric value that is not a number (kept as its type's name for the warning)."""

    __slots__ = ("type_name",)

    def __init__(self, type_name: str) -> None:
        self.type_name = type_name


def coerce_number(value: Any) -> Any:
    """float(value) for numpy / torch scalars and bools; an ``Unusable`` otherwise. Runs in the
    trainer's thread (log()), so a tensor changed in place afterwards does not change the point."""
    try:
        return float(value)
    except Exception:
        return Unusable(type(value).__name__)


def storable_float(value: float) -> float:
    """The value at 16 significant digits: what the workbench stores exactly. Its metric column
    keeps 16 digits of a double (the 17th is rounded away on the way in), so a value with 17
    would come back different, and re-sending it (a retry, a restart, a sync) would be answered
    ``conflict`` instead of ``duplicate``. A relative change below 1e-16; infinite after rounding
    (the largest doubles) keeps the value as it was."""
    rounded = float(f"{value:.16g}")
    return rounded if math.isfinite(rounded) else value


def iso_time(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).isoformat(timespec="milliseconds")


def as_int(value: Any) -> Optional[int]:
    """An integer from int-like values (numpy ints, 3.0); None otherwise. Bools are not steps."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        pass
    try:
        f = float(value)
    except Exception:
        return None
    return int(f) if math.isfinite(f) and f.is_integer() else None


def utf16_len(text: str) -> int:
    """Length as JavaScript counts it (the server's zod .max() does): UTF-16 code units."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def cut_text(text: str, limit: int) -> str:
    """The head of ``text`` within ``limit`` UTF-16 units, with a note of the full length."""
    total = utf16_len(text)
    note = f"… [cut by the paravt SDK: {total} characters in all]"
    keep = max(0, limit - len(note))
    head = text.encode("utf-16-le", "surrogatepass")[: keep * 2].decode("utf-16-le", "ignore")
    return head + note


def json_safe(value: Any, depth: int = 0, on_change: Optional[Any] = None, path: str = "") -> Any:
    """Plain JSON values from what trainers keep in configs and tool arguments (mappings such as
    OmegaConf's, tuples, sets, dataclasses, paths, enums, numpy scalars). What JSON cannot hold
    becomes text: NaN and infinities as "nan" / "inf", other objects as str(value)."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        if on_change:
            on_change(path, f"{value} is not a JSON number; sent as text")
        return str(value)
    if depth >= MAX_JSON_DEPTH:
        if on_change:
            on_change(path, f"nested deeper than {MAX_JSON_DEPTH} levels; sent as text")
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): json_safe(v, depth + 1, on_change, f"{path}.{k}") for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [json_safe(v, depth + 1, on_change, f"{path}[]") for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return json_safe(dataclasses.asdict(value), depth + 1, on_change, path)
    if isinstance(value, enum.Enum):
        return json_safe(value.value, depth + 1, on_change, path)
    if isinstance(value, PurePath):
        return str(value)
    if hasattr(value, "item") and callable(value.item):  # numpy / torch scalars
        try:
            return json_safe(value.item(), depth + 1, on_change, path)
        except Exception:
            pass
    if hasattr(value, "tolist") and callable(value.tolist):  # numpy arrays
        try:
            return json_safe(value.tolist(), depth + 1, on_change, path)
        except Exception:
            pass
    if on_change:
        on_change(path, f"a {type(value).__name__} is not JSON; sent as its text")
    return str(value)


# ----- metrics -----------------------------------------------------------------------------------


def metric_item(item_id: str, step: Any, values: Mapping[Any, Any], t: float, problems: Problems) -> Optional[str]:
    """One log() call as a metric item (JSON text), or None when nothing in it can be sent."""
    s = as_int(step)
    if s is None or not 0 <= s <= MAX_STEP:
        problems.report(
            ("metric-step", repr(step)[:50]),
            f"log() step {step!r} is not an integer in 0..{MAX_STEP}; those values were dropped",
        )
        return None
    out: Dict[str, float] = {}
    for raw_name, value in values.items():
        name = raw_name.strip() if isinstance(raw_name, str) else str(raw_name)
        if not name or len(name) > MAX_METRIC_NAME or not METRIC_NAME.match(name):
            problems.report(
                ("metric-name", name),
                f"metric name {name[:120]!r} is not accepted (letters, digits and _ . / : -, "
                f"at most {MAX_METRIC_NAME} characters); its values are dropped",
            )
            continue
        if isinstance(value, Unusable):
            problems.report(
                ("metric-type", name),
                f"metric {name!r} is a {value.type_name}, not a number; its values are dropped "
                f"(first at step {s})",
            )
            continue
        if type(value) is not float:
            value = coerce_number(value)
            if isinstance(value, Unusable):
                continue
        if not math.isfinite(value):
            problems.report(
                ("metric-nonfinite", name),
                f"metric {name!r} is {value} at step {s}; non-finite values are dropped "
                "(shown once per metric name)",
            )
            continue
        out[name] = storable_float(value)
    if not out:
        return None
    return json.dumps({"id": item_id, "step": s, "values": out, "at": iso_time(t)}, allow_nan=False)


# ----- rollouts ----------------------------------------------------------------------------------


class _Item:
    """Checks one rollout's fields against the contract; problems keyed by field path."""

    def __init__(self, problems: Problems, where: str) -> None:
        self.p = problems
        self.where = where

    def warn(self, key: str, message: str) -> None:
        self.p.report(("rollout", key, message[:80]), f"rollout {key}: {message} ({self.where})")

    def text(self, value: Any, limit: int, path: str, nullable: bool = True) -> Optional[str]:
        if value is None:
            return None if nullable else ""
        if not isinstance(value, str):
            self.warn(path, f"a {type(value).__name__}, sent as text")
            value = str(value)
        if len(value) > limit // 2 and utf16_len(value) > limit:
            self.warn(path, f"longer than {limit} characters; cut to {limit} (shown once per field)")
            value = cut_text(value, limit)
        return value

    def number(self, value: Any, path: str, minimum: Optional[float] = None) -> Optional[float]:
        if value is None:
            return None
        f = coerce_number(value)
        if isinstance(f, Unusable) or not math.isfinite(f):
            self.warn(path, f"{value!r} is not a finite number; left out")
            return None
        if minimum is not None and f < minimum:
            self.warn(path, f"{f} is below {minimum}; left out")
            return None
        return f

    def integer(self, value: Any, path: str, lo: int, hi: int) -> Optional[int]:
        if value is None:
            return None
        i = as_int(value)
        if i is None or not lo <= i <= hi:
            self.warn(path, f"{value!r} is not an integer in {lo}..{hi}; left out")
            return None
        return i

    def boolean(self, value: Any, path: str) -> Optional[bool]:
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, (int, float)) and value in (0, 1):
            return bool(value)
        self.warn(path, f"{value!r} is not a boolean; left out")
        return None

    def numbers(self, value: Any, path: str, limit: int) -> List[float]:
        if value is None:
            return []
        if not isinstance(value, (list, tuple)):
            try:
                value = list(value)
            except TypeError:
                self.warn(path, "not a list; left out")
                return []
        if len(value) > limit:
            self.warn(path, f"more than {limit} entries; the first {limit} are kept")
            value = value[:limit]
        out = []
        for v in value:
            f = self.number(v, f"{path}[]", minimum=0)
            if f is not None:
                out.append(f)
        return out

    def choice(self, value: Any, path: str, choices: Tuple[str, ...]) -> Optional[str]:
        if value is None:
            return None
        if value in choices:
            return value
        self.warn(path, f"{value!r} is not one of {', '.join(choices)}; left out")
        return None

    def unknown(self, obj: Mapping, known: Tuple[str, ...], path: str) -> None:
        for key in obj:
            if key not in known:
                self.warn(f"{path}{key}", "unknown key, left out")


TOP_KEYS = (
    "id",
    "index",
    "k",
    "promptMode",
    "sample",
    "status",
    "error",
    "finalText",
    "prediction",
    "correct",
    "score",
    "rewardTerms",
    "overviewTimestamps",
    "turns",
    # accepted and checked: the ingestion line's own fields
    "type",
    "step",
) + SDK_ROLLOUT_KEYS
SAMPLE_KEYS = ("key", "question", "answer", "questionType", "options", "videoId", "videoPath")
TURN_KEYS = (
    "index",
    "rawText",
    "forcedPrefix",
    "forcedFinal",
    "parseIssues",
    "promptTokens",
    "completionTokens",
    "toolCalls",
)
CALL_KEYS = (
    "index",
    "name",
    "arguments",
    "startS",
    "endS",
    "clamped",
    "frameTimestamps",
    "subAgentOutput",
    "status",
    "error",
)
MAX_INT = 2**31 - 1


def _sample(c: _Item, raw: Any) -> Optional[dict]:
    if not isinstance(raw, Mapping):
        c.warn("sample", "missing (a dict with key, question, answer, questionType); rollout dropped")
        return None
    c.unknown(raw, SAMPLE_KEYS, "sample.")
    key = c.text(raw.get("key"), 200, "sample.key")
    if key is None or not key.strip():
        c.warn("sample.key", "missing; rollout dropped")
        return None
    out: Dict[str, Any] = {
        "key": key.strip(),
        "question": c.text(raw.get("question"), 20_000, "sample.question", nullable=False),
        "answer": c.text(raw.get("answer"), 2000, "sample.answer", nullable=False),
    }
    qt = raw.get("questionType")
    if qt not in QUESTION_TYPES:
        c.warn("sample.questionType", f"{qt!r} is not one of {', '.join(QUESTION_TYPES)}; sent as 'oe'")
        qt = "oe"
    out["questionType"] = qt
    options = raw.get("options")
    if options is not None:
        if not isinstance(options, (list, tuple)):
            c.warn("sample.options", "not a list; left out")
        else:
            if len(options) > 26:
                c.warn("sample.options", "more than 26 options; the first 26 are kept")
            out["options"] = [c.text(o, 1000, "sample.options[]", nullable=False) for o in options[:26]]
    video = raw.get("videoId")
    if video is not None:
        if isinstance(video, str) and 0 < len(video.strip()) <= 64:
            out["videoId"] = video.strip()
        else:
            c.warn("sample.videoId", f"{str(video)[:80]!r} is not a video id; left out")
    # Or the path the trainer read the video from: the server links the project's video
    # registered at that path under its MEDIA_ROOTS (and says so per rollout when none is).
    video_path = raw.get("videoPath")
    if video_path is not None:
        if isinstance(video_path, str) and 0 < len(video_path) <= 4096:
            out["videoPath"] = video_path
        else:
            c.warn("sample.videoPath", f"{str(video_path)[:80]!r} is not a path of at most 4096 characters; left out")
    return out


def _tool_call(c: _Item, raw: Any, position: int) -> Optional[dict]:
    if not isinstance(raw, Mapping):
        c.warn("turns[].toolCalls[]", "not a dict; left out")
        return None
    c.unknown(raw, CALL_KEYS, "turns[].toolCalls[].")
    out: Dict[str, Any] = {"index": position}
    if "index" in raw:
        i = c.integer(raw["index"], "turns[].toolCalls[].index", 0, MAX_INT)
        out["index"] = position if i is None else i
    if raw.get("name") is not None:
        out["name"] = c.text(raw["name"], 100, "turns[].toolCalls[].name")
    if raw.get("arguments") is not None:
        args = raw["arguments"]
        if isinstance(args, str):  # an OpenAI-style tool call carries its arguments as JSON text
            try:
                args = json.loads(args)
            except ValueError:
                args = {"text": args}
        if not isinstance(args, Mapping):
            args = {"value": args}
        out["arguments"] = json_safe(
            args, 3, lambda path, m: c.warn(f"turns[].toolCalls[].arguments{path}", m), ""
        )
    for name in ("startS", "endS"):
        if raw.get(name) is not None:
            out[name] = c.number(raw[name], f"turns[].toolCalls[].{name}", minimum=0)
    if raw.get("clamped") is not None:
        b = c.boolean(raw["clamped"], "turns[].toolCalls[].clamped")
        if b is not None:
            out["clamped"] = b
    if raw.get("frameTimestamps") is not None:
        out["frameTimestamps"] = c.numbers(raw["frameTimestamps"], "turns[].toolCalls[].frameTimestamps", 64)
    if raw.get("subAgentOutput") is not None:
        out["subAgentOutput"] = c.text(raw["subAgentOutput"], 20_000, "turns[].toolCalls[].subAgentOutput")
    status = c.choice(raw.get("status"), "turns[].toolCalls[].status", ("OK", "ERROR", "REJECTED"))
    if status:
        out["status"] = status
    if raw.get("error") is not None:
        out["error"] = c.text(raw["error"], 4000, "turns[].toolCalls[].error")
    return out


def _turn(c: _Item, raw: Any, position: int) -> Optional[dict]:
    if not isinstance(raw, Mapping):
        c.warn("turns[]", "not a dict; left out")
        return None
    c.unknown(raw, TURN_KEYS, "turns[].")
    out: Dict[str, Any] = {"index": position, "rawText": c.text(raw.get("rawText"), 200_000, "turns[].rawText", False)}
    if "index" in raw:
        i = c.integer(raw["index"], "turns[].index", 0, MAX_INT)
        out["index"] = position if i is None else i
    if raw.get("forcedPrefix") is not None:
        out["forcedPrefix"] = c.text(raw["forcedPrefix"], 1000, "turns[].forcedPrefix")
    if raw.get("forcedFinal") is not None:
        b = c.boolean(raw["forcedFinal"], "turns[].forcedFinal")
        if b is not None:
            out["forcedFinal"] = b
    issues = raw.get("parseIssues")
    if issues is not None:
        if not isinstance(issues, (list, tuple)):
            issues = [issues]
        if len(issues) > 50:
            c.warn("turns[].parseIssues", "more than 50; the first 50 are kept")
        out["parseIssues"] = [c.text(i, 500, "turns[].parseIssues[]", False) for i in issues[:50]]
    for name in ("promptTokens", "completionTokens"):
        if raw.get(name) is not None:
            out[name] = c.integer(raw[name], f"turns[].{name}", 0, MAX_INT)
    calls = raw.get("toolCalls")
    if calls is not None:
        if not isinstance(calls, (list, tuple)):
            c.warn("turns[].toolCalls", "not a list; left out")
            calls = []
        if len(calls) > 64:
            c.warn("turns[].toolCalls", "more than 64 calls in a turn; the first 64 are kept")
        made = [_tool_call(c, call, i) for i, call in enumerate(calls[:64])]
        out["toolCalls"] = _unique_indices(c, [m for m in made if m is not None], "turns[].toolCalls[].index")
    return out


def _unique_indices(c: _Item, objs: List[dict], path: str) -> List[dict]:
    """The server refuses a rollout whose turns (or a turn's calls) share an index."""
    seen = set()
    out = []
    for o in objs:
        if o["index"] in seen:
            c.warn(path, f"index {o['index']} appears twice; the second is left out")
            continue
        seen.add(o["index"])
        out.append(o)
    return out


class _StepGroups:
    """GRPO groups of one step, numbered by first appearance (across log_rollouts calls)."""

    def __init__(self) -> None:
        self.numbers: Dict[Hashable, int] = {}
        self.members: Dict[int, int] = {}
        self.next_index = 0
        self.used_indices: set = set()


class RolloutBuilder:
    """Rollout items of a run. Keeps the group numbering and automatic indices of the last steps,
    so that rollouts of one step logged in several calls share them."""

    KEEP_STEPS = 16

    def __init__(self, problems: Problems) -> None:
        self.problems = problems
        self._steps: "OrderedDict[int, _StepGroups]" = OrderedDict()
        self._warned_no_video = False

    def _state(self, step: int) -> _StepGroups:
        state = self._steps.get(step)
        if state is None:
            state = self._steps[step] = _StepGroups()
            while len(self._steps) > self.KEEP_STEPS:
                self._steps.popitem(last=False)
        return state

    def build(self, step: Any, rollouts: Any) -> List[Tuple[str, str]]:
        """(client id, JSON text) of each rollout that can be sent."""
        s = as_int(step)
        if s is None or not 0 <= s <= MAX_ROLLOUT_STEP:
            self.problems.report(
                ("rollout-step", repr(step)[:50]),
                f"log_rollouts() step {step!r} is not an integer in 0..{MAX_ROLLOUT_STEP}; "
                "those rollouts were dropped",
            )
            return []
        if isinstance(rollouts, Mapping):
            rollouts = [rollouts]
        try:
            rollouts = list(rollouts)
        except TypeError:
            self.problems.report(("rollouts-type",), "log_rollouts() takes a list of dicts")
            return []
        state = self._state(s)
        # A group's size: its members in earlier calls of this step plus those of this call, so
        # the first rollout of a group already knows it (the whole group comes in one call as a rule).
        sizes: Dict[Hashable, int] = {}
        for r in rollouts:
            if isinstance(r, Mapping) and r.get("group") is not None:
                g = _group_key(r["group"])
                if g not in sizes:
                    number = state.numbers.get(g)
                    sizes[g] = state.members.get(number, 0) if number is not None else 0
                sizes[g] += 1
        out = []
        for position, raw in enumerate(rollouts):
            built = self._one(s, raw, state, sizes, position)
            if built is not None:
                out.append(built)
        return out

    def _one(
        self, step: int, raw: Any, state: _StepGroups, sizes: Dict[Hashable, int], position: int
    ) -> Optional[Tuple[str, str]]:
        c = _Item(self.problems, f"step {step}, rollout {position} of the call")
        if not isinstance(raw, Mapping):
            c.warn("(item)", f"a {type(raw).__name__}, not a dict; dropped")
            return None
        c.unknown(raw, TOP_KEYS, "")
        if "step" in raw and as_int(raw["step"]) != step:
            c.warn("step", f"{raw['step']!r} differs from log_rollouts' step {step}; the argument wins")
        if "type" in raw and raw["type"] != "rollout":
            c.warn("type", f"{raw['type']!r} is not 'rollout'; ignored")
        sample = _sample(c, raw.get("sample"))
        if sample is None:
            return None
        if "videoId" not in sample and "videoPath" not in sample and not self._warned_no_video:
            self._warned_no_video = True
            self.problems.report(
                ("rollout-no-video",),
                "rollouts without sample.videoId or sample.videoPath are stored, but the episode viewer "
                "has no video to draw their crop windows on (pass the video's path under the server's "
                "MEDIA_ROOTS, or the id of the project's video); shown once per run",
            )
        # Position within the step: given, or the next one after those seen at this step.
        if raw.get("index") is not None:
            index = c.integer(raw["index"], "index", 0, MAX_ROLLOUT_INDEX)
            if index is None:
                c.warn("index", "invalid; rollout dropped")
                return None
        else:
            index = state.next_index
            while index in state.used_indices:
                index += 1
            if index > MAX_ROLLOUT_INDEX:
                c.warn("index", f"more than {MAX_ROLLOUT_INDEX + 1} rollouts at one step; dropped")
                return None
        state.used_indices.add(index)
        state.next_index = max(state.next_index, index + 1)

        k = c.integer(raw.get("k"), "k", 1, MAX_K) if raw.get("k") is not None else None
        overview = c.numbers(raw.get("overviewTimestamps"), "overviewTimestamps", MAX_K)
        if k is None:
            if not overview:
                c.warn("k", "missing (the number of overview frames K); rollout dropped")
                return None
            k = len(overview)

        item: Dict[str, Any] = {"id": "", "step": step, "index": index, "k": k, "sample": sample}
        client_id = raw.get("id")
        if client_id is not None:
            client_id = str(client_id).strip()
            if not client_id or len(client_id) > MAX_CLIENT_ID:
                c.warn("id", f"must have 1..{MAX_CLIENT_ID} characters; the step/index id is used")
                client_id = None
        # Deterministic from step and index: a resend (restart, spool, a second process) is a
        # duplicate on the server, never a second row.
        item["id"] = client_id or f"step-{step}/rollout-{index}"
        if raw.get("promptMode") is not None:
            item["promptMode"] = c.text(raw["promptMode"], 50, "promptMode")
        status = c.choice(raw.get("status"), "status", ("OK", "ERROR"))
        if status:
            item["status"] = status
        for name, limit in (("error", 4000), ("finalText", 200_000), ("prediction", 2000)):
            if raw.get(name) is not None:
                item[name] = c.text(raw[name], limit, name)
        if raw.get("correct") is not None:
            item["correct"] = c.boolean(raw["correct"], "correct")
        if raw.get("score") is not None:
            item["score"] = c.number(raw["score"], "score")
        if overview:
            item["overviewTimestamps"] = overview
        turns = raw.get("turns")
        if turns is not None:
            if not isinstance(turns, (list, tuple)):
                c.warn("turns", "not a list; left out")
                turns = []
            if len(turns) > 32:
                c.warn("turns", "more than 32 turns; the first 32 are kept")
            made = [_turn(c, t, i) for i, t in enumerate(turns[:32])]
            item["turns"] = _unique_indices(c, [m for m in made if m is not None], "turns[].index")
        terms = self._reward_terms(c, raw, state, sizes)
        if terms:
            item["rewardTerms"] = terms
        return item["id"], json.dumps(item, allow_nan=False)

    def _reward_terms(
        self, c: _Item, raw: Mapping, state: _StepGroups, sizes: Dict[Hashable, int]
    ) -> Dict[str, Any]:
        terms: Dict[str, Any] = {}
        given = raw.get("rewardTerms")
        if given is not None and not isinstance(given, Mapping):
            c.warn("rewardTerms", "not a dict; left out")
            given = None
        for name, value in (given or {}).items():
            name = str(name)
            if isinstance(value, bool):
                terms[name] = value
                continue
            f = c.number(value, f"rewardTerms.{name}")
            if f is not None:
                terms[name] = int(f) if isinstance(value, int) else f
        # The GRPO group inspector reads group / groupIndex / groupSize / advantage (ARCHITECTURE.md,
        # train.rl; training-rollouts.ts): groups numbered by first appearance within the step.
        if raw.get("group") is not None:
            key = _group_key(raw["group"])
            number = state.numbers.get(key)
            if number is None:
                number = state.numbers[key] = len(state.numbers)
            member = state.members.get(number, 0)
            state.members[number] = member + 1
            terms["group"] = number
            terms["groupIndex"] = member
            terms.setdefault("groupSize", sizes.get(key, member + 1))
        if raw.get("advantage") is not None:
            a = c.number(raw["advantage"], "advantage")
            if a is not None:
                terms["advantage"] = a
        return terms


def _group_key(value: Any) -> Hashable:
    try:
        hash(value)
        return value
    except TypeError:
        return repr(value)

