import { describe, expect, it } from "vitest";
import { hotkeyHandler, playerKeys, type PlayerControls } from "./use-hotkeys";

const play = () => undefined;
const keymap = { " ": play, j: play, "?": play, Escape: play };

/** A keydown as the browser sends it (no DOM in this test environment). */
function key(
  k: string,
  target: { tagName: string; isContentEditable?: boolean } | null = { tagName: "BODY" },
  mods: Partial<Record<"metaKey" | "ctrlKey" | "altKey" | "shiftKey", boolean>> = {},
): KeyboardEvent {
  return {
    key: k,
    target: target && { isContentEditable: false, ...target },
    metaKey: false,
    ctrlKey: false,
    altKey: false,
    shiftKey: false,
    ...mods,
  } as unknown as KeyboardEvent;
}

describe("hotkeyHandler", () => {
  it("finds the handler of a mapped key pressed on the page", () => {
    expect(hotkeyHandler(key("j"), keymap)).toBe(play);
    expect(hotkeyHandler(key(" ", { tagName: "BUTTON" }), keymap)).toBe(play);
    expect(hotkeyHandler(key("Escape", null), keymap)).toBe(play);
    // Shift is how "?" is typed: not a modifier that hands the key to the browser.
    expect(hotkeyHandler(key("?", undefined, { shiftKey: true }), keymap)).toBe(play);
  });

  it("leaves other keys alone", () => {
    expect(hotkeyHandler(key("k"), keymap)).toBeUndefined();
    expect(hotkeyHandler(key("J"), keymap)).toBeUndefined();
  });

  it("leaves keys typed in a form field or contentEditable alone", () => {
    for (const tagName of ["INPUT", "TEXTAREA", "SELECT"]) {
      expect(hotkeyHandler(key("j", { tagName }), keymap)).toBeUndefined();
    }
    expect(hotkeyHandler(key("j", { tagName: "DIV", isContentEditable: true }), keymap)).toBeUndefined();
  });

  it("leaves keys with a modifier to the browser", () => {
    for (const mod of ["metaKey", "ctrlKey", "altKey"] as const) {
      expect(hotkeyHandler(key("j", undefined, { [mod]: true }), keymap)).toBeUndefined();
    }
  });
});

describe("playerKeys", () => {
  function setup(at: number | undefined, paused = true) {
    const calls: string[] = [];
    const player: PlayerControls = {
      paused: () => paused,
      play: () => calls.push("play"),
      pause: () => void calls.push("pause"),
      currentTime: () => at,
    };
    const seeks: number[] = [];
    return {
      calls,
      seeks,
      keys: playerKeys(
        { current: player },
        (t) => seeks.push(t),
        () => 7,
        25,
      ),
    };
  }

  it("plays or pauses with Space", () => {
    const stopped = setup(3, true);
    stopped.keys[" "]!();
    expect(stopped.calls).toEqual(["play"]);
    const playing = setup(3, false);
    playing.keys[" "]!();
    expect(playing.calls).toEqual(["pause"]);
  });

  it("seeks 10 s with j / l and one frame with the arrows (pausing), from the player's time else now()", () => {
    const s = setup(30);
    s.keys.j!();
    s.keys.l!();
    s.keys.ArrowLeft!();
    s.keys.ArrowRight!();
    expect(s.seeks).toEqual([20, 40, 30 - 1 / 25, 30 + 1 / 25]);
    expect(s.calls).toEqual(["pause", "pause"]);
    const unknown = setup(undefined);
    unknown.keys.l!();
    expect(unknown.seeks).toEqual([17]);
  });

  it("does nothing without a player but seeking from now()", () => {
    const seeks: number[] = [];
    const keys = playerKeys(
      { current: null },
      (t) => seeks.push(t),
      () => 5,
      30,
    );
    keys[" "]!();
    keys.ArrowRight!();
    expect(seeks).toEqual([5 + 1 / 30]);
  });
});
