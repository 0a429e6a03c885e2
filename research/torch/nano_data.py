"""The numpy half of the GPU trainer (no PyTorch needed): safetensors in the core's layout, and the
data `gpu-sft.ts export` writes, with the trainer's per-example batch assembly (train-sft.ts
trainSft: palette and digit permutation on the answer turn, emphasis weights, frame targets)."""

import gzip
import json
import lzma
import os
import struct

import numpy as np

NEVER = 2**30


def read_safetensors(path):
    """(ordered [(name, float32 array)], metadata) of an F32 safetensors file."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    meta = header.pop("__metadata__", {})
    entries = sorted(header.items(), key=lambda kv: kv[1]["data_offsets"][0])
    out = []
    for name, e in entries:
        assert e["dtype"] == "F32", f"{name}: dtype {e['dtype']}"
        b, end = e["data_offsets"]
        arr = np.frombuffer(raw, dtype="<f4", count=(end - b) // 4, offset=8 + n + b).reshape(e["shape"])
        out.append((name, arr.copy()))
    return out, meta


def write_safetensors(path, named, metadata):
    """Tensors in the given order, contiguous (the reader in safetensors.ts requires the tiling)."""
    header, blobs, off = {}, [], 0
    for name, t in named:
        a = t.detach().float().cpu().numpy() if hasattr(t, "detach") else np.asarray(t)
        data = np.ascontiguousarray(a, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [off, off + len(data)]}
        blobs.append(data)
        off += len(data)
    header["__metadata__"] = {k: str(v) for k, v in metadata.items()}
    h = json.dumps(header).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for b in blobs:
            f.write(b)
    os.replace(tmp, path)


def _array(d, name, dtype):
    """`name` as written by the export, or its .xz / .gz (xz is what travels to a GPU machine)."""
    path = os.path.join(d, name)
    for ext, opener in (("", open), (".xz", lzma.open), (".gz", gzip.open)):
        if os.path.exists(path + ext):
            with opener(path + ext, "rb") as f:
                return np.frombuffer(f.read(), dtype=dtype)
    raise FileNotFoundError(f"{path} (nor .xz, .gz)")


def last_run_start(loss):
    """Where the last run of loss positions starts: a main-agent example's last (answer) turn."""
    on = loss > 0
    starts = np.nonzero(on[1:] & ~on[:-1])[0] + 1
    return int(starts[-1]) if len(starts) else int(np.argmax(on))


def turn_starts(loss):
    """The first position of each run of loss positions: in a main-agent example, each assistant turn's."""
    on = loss > 0
    return np.nonzero(on & ~np.append(False, on[:-1]))[0]


TIME_TOKENS = 600  # 00:00-09:59 (Data time_tokens)


class Data:
    """The export's arrays and the trainer's per-example batch assembly (train-sft.ts trainSft)."""

    def __init__(self, d):
        # time_tokens (experiment, train_sft.py --time-tokens, README.md): every MM:SS below 10:00
        # becomes one token V + 60·M + S instead of five (digits and colon); wte grows by TIME_TOKENS rows.
        self.time_tokens = False
        # spell_sub_agents (with time_tokens; train_sft.py --spell-sub-agent-times): a sub-agent
        # example's own summary (its assistant tokens) keeps MM:SS as digits, so a sub-agent converts
        # a frame's `<72.0 seconds>` digit by digit (01:12) instead of a 600-way lookup; its prompt and
        # every main-agent example still get time tokens, as the tokenizer's greedy match gives them.
        self.spell_sub_agents = False
        # train_sft.py --letter-weight: a letter drill's (kind 3) handful of trained tokens is ~1 %
        # of a batch's loss at weight 1 (the rest: whole answer turns and sub-agent summaries).
        self.letter_weight = 1.0
        # train_sft.py --letter-short P: the share of letter drills (kind 3) cut to their prompt and
        # answer turn (`cut_middle`), ~3x fewer tokens for the same trained letter.
        self.letter_short = 0.0
        self.meta = json.load(open(os.path.join(d, "meta.json")))
        m = self.meta
        self.table = _array(d, "examples.i32", "<i4").reshape(-1, 8)
        self.ids = _array(d, "ids.i16", "<i2").astype(np.int64)
        self.loss = _array(d, "loss.u8", np.uint8)
        self.frame = _array(d, "frame.i32", "<i4").astype(np.int64)
        self.ftarget = _array(d, "ftarget.i16", "<i2").astype(np.int64)
        th = m["thumbnail"]
        self.frames = _array(d, "frames.u8", np.uint8).reshape(-1, th["height"] * th["width"], 3)
        assert len(self.frames) == m["frames"], (len(self.frames), m["frames"])
        self.V = m["vocabSize"]
        self.pad = m["pad"]
        self.frame_id = m["frameId"]
        self.emph = np.asarray(m["emphasisWeights"], dtype=np.float32)
        self.ft_weight = float(m["frameTargetWeight"])
        self.digits = np.asarray(m["digits"], dtype=np.int64)
        pal = m["palette"]
        self.groups = pal["groups"]  # [group][word][form] -> id
        self.vowel = pal["vowelWords"]
        self.art_a, self.art_an = pal["articles"].get("a"), pal["articles"].get("an")
        self.shape_color_ids = np.zeros(self.V, dtype=bool)
        self.shape_color_ids[[i for forms in self.groups[0] for i in forms]] = True
        self.palette_ids = np.zeros(self.V, dtype=bool)
        self.palette_ids[[i for words in self.groups for forms in words for i in forms]] = True
        self.digit_value = np.full(self.V, -1, dtype=np.int64)
        self.digit_value[self.digits] = np.arange(10)
        self.colon = m.get("timeColon")  # absent in exports before the time shift
        self.when = m["templates"].index("when") if "when" in m["templates"] else -1
        self.drill = self.table[:, 2] >= 2  # when (2) and letter (3) drills (gpu-export.ts): stand-in frames

    def tool_rounds(self, x):
        """Tool rounds of example x's trajectory: its runs of loss positions (assistant turns) minus
        the answer turn (the export marks every assistant turn, also of a drill, which then trains
        only its answer turn). Only a main-agent example (kind 0) or a when/scene drill (kind 2)
        has rounds; a sub-agent sample or a letter drill counts 0."""
        off, n, kind = (int(v) for v in self.table[x][:3])
        if kind not in (0, 2):
            return 0
        return max(0, len(turn_starts(self.loss[off : off + n])) - 1)

    def draw_pool(self, kinds, repeat=None, drill=1, letter_drill=1, repeat_rounds=1):
        """Example indices of one epoch (train_sft.py): every example of `kinds` once; a main-agent
        example of a `repeat` template (e.g. {"when": 2}) N times, a when/scene drill `drill` times,
        a letter drill `letter_drill` times; and with `repeat_rounds` R, a main-agent example or
        drill whose trajectory takes two or more tool rounds R times as often again. Why R: in the
        export ~60 % of the scene and ~70 % of the `when` trajectories answer after round 1, and a
        model trained on it answers after round 1 every time, also when no response shows the
        asked scene or target (nano README, Quality bar, "twelfth session")."""
        repeat = repeat or {}
        pool = []
        for x, row in enumerate(self.table):
            kind = int(row[2])
            if kind not in kinds:
                continue
            if kind == 0:
                n = repeat.get(self.meta["templates"][row[6]], 1)
            else:
                n = {2: drill, 3: letter_drill}.get(kind, 1)
            if repeat_rounds != 1 and self.tool_rounds(x) >= 2:
                n *= repeat_rounds
            pool += [x] * n
        return np.asarray(pool, dtype=np.int64)

    def features(self, rows=None):
        """[F, P] float32: rgb / 127.5 - 1, then (rgb - lower channel median) / 127.5 (config.ts)."""
        fr = self.frames if rows is None else self.frames[rows]
        k = (fr.shape[1] - 1) // 2  # the lower median's 0-based rank (channelMedians)
        med = np.sort(fr, axis=1)[:, k : k + 1, :].astype(np.float32)  # [F, 1, 3]
        x = fr.astype(np.float32)
        return np.concatenate([(x / 127.5 - 1).reshape(len(fr), -1), ((x - med) / 127.5).reshape(len(fr), -1)], 1)

    def draw_maps(self, rng, palette, digits):
        """The token map of one example's permutations (identity where none)."""
        mp = np.arange(self.V, dtype=np.int64)
        perm0 = None
        if palette:
            for g, words in enumerate(self.groups):
                perm = rng.permutation(len(words))
                if g == 0:
                    perm0 = perm
                for w, forms in enumerate(words):
                    for f, i in enumerate(forms):
                        mp[i] = words[perm[w]][f]
        if digits:
            perm = rng.permutation(10)
            mp[self.digits] = self.digits[perm]
        return mp, perm0

    def times(self, ids, lo, hi):
        """[(position, seconds)] of every MM:SS in ids[lo:hi] (five pieces: d d ':' d d)."""
        v = self.digit_value[ids[lo:hi]]
        if self.colon is None or hi - lo < 5:
            return []
        dd = (v[:-4] >= 0) & (v[1:-3] >= 0) & (ids[lo + 2 : hi - 2] == self.colon) & (v[3:-1] >= 0) & (v[4:] >= 0)
        at = np.nonzero(dd)[0]
        return [(lo + i, (v[i] * 10 + v[i + 1]) * 60 + v[i + 3] * 10 + v[i + 4]) for i in at]

    def time_shift(self, ids, n, off, answer_from, rng, max_s, wrote=None):
        """The spans to rewrite and a shift d for a `when` answer that copies the tool responses' times.

        Tool responses are the untrained text after the first assistant turn starts (the main
        agent's context holds no other MM:SS there). Eligible when every time the answer turn writes
        (`wrote`, the answer turn's `times` when the caller has them) is also a time of a response;
        d moves every response time and every answer time by the same seconds, within 0..max_s, so
        the answer is predictable only from the target's sentence.
        """
        loss = self.loss[off : off + n]
        first = int(np.argmax(loss > 0))
        said = [(i, t) for i, t in self.times(ids, first, answer_from) if loss[i] == 0]
        if wrote is None:
            wrote = self.times(ids, answer_from, n)
        if not wrote or not said or not {t for _, t in wrote} <= {t for _, t in said}:
            return None
        spans = said + wrote
        lo, hi = min(t for _, t in spans), max(t for _, t in spans)
        if hi - lo > max_s:
            return None
        return spans, int(rng.integers(-lo, max_s - hi + 1))

    def example(self, x, rng, p_palette, p_digits, plain=False, p_shift=0.0, shift_max_s=299):
        off, n, kind, answer_from, pal_from, dig_from, template, _ = self.table[x]
        ids = self.ids[off : off + n]
        pal = not plain and pal_from < NEVER and rng.random() < p_palette
        dig = not plain and dig_from < NEVER and rng.random() < p_digits
        shift = None
        main = kind in (0, 2, 3)
        # The MM:SS times a `when` answer turn writes (before any shift: positions do not move).
        wrote = self.times(ids, answer_from, n) if main and template == self.when else []
        if not plain and not dig and main and template == self.when and p_shift > 0 and rng.random() < p_shift:
            shift = self.time_shift(ids, n, off, answer_from, rng, shift_max_s, wrote)
        mp, perm0 = self.draw_maps(rng, pal, dig)
        ids2 = mp[ids]
        if shift is not None:
            spans, d = shift
            for i, t in spans:
                t += d
                ids2[i : i + 5] = self.digits[[t // 600, t // 60 % 10, 0, t % 60 // 10, t % 10]]
                ids2[i + 2] = self.colon
        # Key digits: the first MM:SS a `when` answer turn writes, found only in the target's sentence.
        key = np.zeros(n, dtype=bool)
        if wrote:
            first = wrote[0][0]
            key[[first, first + 1, first + 3, first + 4]] = True
        if pal and self.art_a is not None and self.art_an is not None:
            # " A" / " An" before a shape colour follows the new colour (palette-permutation.ts).
            at = np.nonzero(self.shape_color_ids[ids[1:]] & np.isin(ids2[:-1], [self.art_a, self.art_an]))[0]
            for i in at:
                new = ids2[i + 1]
                word = next(w for w, forms in enumerate(self.groups[0]) if new in forms)
                ids2[i] = self.art_an if self.vowel[0][word] else self.art_a
        # A drill trains its answer turn only: its frames are stand-ins, its earlier turns the crops
        # search that the rendered `when` examples already teach. A letter drill's answer_from (and
        # its other froms) is its letter: the rest of its answer turn rests on frames it lacks.
        froms = [f for f, on in ((pal_from, pal), (dig_from, dig), (answer_from, shift is not None or kind >= 2)) if on]
        train_from = min(froms) if froms else 0
        targets = ids2[1:].copy()
        pos = np.arange(n - 1)
        w = np.where(pos + 1 >= train_from, self.loss[off + 1 : off + n], 0).astype(np.float32) * self.emph[targets]
        if kind == 3:
            w *= self.letter_weight
        trained = w > 0
        copy_pal = trained & pal & self.palette_ids[targets]
        copy_dig = trained & (dig or shift is not None) & np.isin(targets, self.digits)
        key_dig = trained & key[1:]
        ft = self.ftarget[off : off + n - 1]
        has = ft >= 0
        targets[has] = ft[has]
        w[has] = self.ft_weight
        out = ids2[:-1], targets, w, self.frame[off : off + n - 1], copy_pal, copy_dig, key_dig
        if kind == 3 and self.letter_short > 0 and rng.random() < self.letter_short:
            ids2, out = self.cut_middle(ids2, out, self.loss[off : off + n])
        if not self.time_tokens:
            return out
        spelled = self.loss[off : off + n] > 0 if self.spell_sub_agents and kind == 1 else None
        return self.collapse_times(ids2, out, spelled)

    @staticmethod
    def cut_middle(ids, out, loss):
        """A main-agent example without its earlier turns: the prompt (up to the first assistant
        token) followed directly by the last turn (from the start of the last run of loss tokens).

        The result reads as a one-turn trajectory ("…<think>\n" then the answer turn's thinking).
        Like collapse_times, kept position j predicts the next kept token, so its weight and masks
        are those of the original position just before that token.
        """
        first, last = int(np.argmax(loss > 0)), last_run_start(loss)
        if last <= first:
            return ids, out
        kept = np.concatenate([np.arange(first), np.arange(last, len(ids))])
        src = kept[1:] - 1
        _, targets, w, f, cp, cd, ck = out
        new_targets = ids[kept[1:]].copy()
        return ids[kept], (ids[kept[:-1]], new_targets, w[src], f[kept[:-1]], cp[src], cd[src], ck[src])

    def collapse_times(self, ids, out, spelled=None):
        """One example's arrays with each MM:SS (M < 10) of `ids` as one time token (time_tokens).

        A span's first position is kept as the time token and its other four dropped. A kept
        position p predicts the next kept token, so its weight and masks are those of the last
        dropped position before it (p itself unless p starts a span): the position that predicted
        a time's first digit now predicts the time token; the key mask marks that one position.
        A span starting at a `spelled` position (bool [n], or None) stays five tokens.
        """
        n = len(ids)
        dv = self.digit_value[ids]
        keep = np.ones(n, dtype=bool)
        orig, ids = ids, ids.copy()
        i = 0
        while i + 4 < n:
            d = dv[i : i + 5]
            if (d[0] == 0 and d[1] >= 0 and ids[i + 2] == self.colon and 0 <= d[3] <= 5 and d[4] >= 0
                    and (spelled is None or not spelled[i])):
                ids[i] = self.V + 60 * d[1] + 10 * d[3] + d[4]
                keep[i + 1 : i + 5] = False
                i += 5
            else:
                i += 1
        kept = np.nonzero(keep)[0]
        # For kept position p (all but the last), the original position whose target was the next kept token.
        src = kept[1:] - 1
        tok = ids[kept[:-1]]
        _, targets, w, f, cp, cd, ck = out
        new_targets = ids[kept[1:]].copy()
        ft = targets[src] != orig[src + 1]  # frame targets (a frame slot's label instead of the next token)
        new_targets[ft] = targets[src][ft]
        return tok, new_targets, w[src], f[kept[:-1]], cp[src], cd[src], ck[src]

    def batch(self, xs, rng, p_palette, p_digits, plain=False, p_shift=0.0):
        """(tokens, targets, weights, frame rows, palette-copy mask, digit-copy mask, key-digit mask)."""
        parts = [self.example(x, rng, p_palette, p_digits, plain, p_shift) for x in xs]
        L = max(len(p[0]) for p in parts)
        B = len(parts)
        tok = np.full((B, L), self.pad, dtype=np.int64)
        tgt = np.full((B, L), self.pad, dtype=np.int64)
        w = np.zeros((B, L), dtype=np.float32)
        fr = np.full((B, L), -1, dtype=np.int64)
        cp = np.zeros((B, L), dtype=bool)
        cd = np.zeros((B, L), dtype=bool)
        ck = np.zeros((B, L), dtype=bool)
        for b, (a, t, ww, f, c1, c2, c3) in enumerate(parts):
            n = len(a)
            tok[b, :n], tgt[b, :n], w[b, :n], fr[b, :n], cp[b, :n], cd[b, :n], ck[b, :n] = a, t, ww, f, c1, c2, c3
        return tok, tgt, w, fr, cp, cd, ck
