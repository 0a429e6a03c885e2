"use client";
import { useEffect, useRef } from "react";

/** `KeyboardEvent.key` -> what the key does. */
export type Keymap = Readonly<Record<string, () => void>>;

/**
 * The handler of `keymap` for a key event, or undefined when the key is not the page's: typed in
 * a form field (input, textarea, select) or contentEditable, pressed with a modifier held
 * (browser shortcuts), or not in the map.
 */
export function hotkeyHandler(e: KeyboardEvent, keymap: Keymap): (() => void) | undefined {
  const target = e.target as HTMLElement | null;
  if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)))
    return undefined;
  if (e.metaKey || e.ctrlKey || e.altKey) return undefined;
  return keymap[e.key];
}

/**
 * Page-wide keyboard shortcuts: a key of `keymap` (see `hotkeyHandler`) runs its handler and its
 * default action is prevented. The keymap is read through a ref, so callers may pass a new object
 * each render without re-binding the listener.
 */
export function useHotkeys(keymap: Keymap) {
  const ref = useRef(keymap);
  useEffect(() => {
    ref.current = keymap;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const fn = hotkeyHandler(e, ref.current);
      if (fn) {
        e.preventDefault();
        fn();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

/** What `playerKeys` calls on a video.js player. */
export interface PlayerControls {
  paused(): boolean;
  play(): unknown;
  pause(): void;
  currentTime(): number | undefined;
}

/** The keys every player page has (the video page, the episode viewer), first in its help. */
export const PLAYER_HOTKEYS: [string, string][] = [
  ["Space", "play / pause"],
  ["j / l", "back / forward 10 s"],
  ["← / →", "previous / next frame"],
];

/**
 * The keymap of PLAYER_HOTKEYS: Space plays or pauses, j / l seek 10 s back / forward, ← / →
 * pause and step one frame (1 / `fps`), from the player's time (else `now()`).
 */
export function playerKeys(
  player: { readonly current: PlayerControls | null },
  seek: (t: number) => void,
  now: () => number,
  fps: number,
): Keymap {
  const seekBy = (s: number) => seek((player.current?.currentTime() ?? now()) + s);
  const stepFrames = (n: number) => {
    player.current?.pause();
    seek((player.current?.currentTime() ?? now()) + n / fps);
  };
  return {
    " ": () => {
      const p = player.current;
      if (!p) return;
      if (p.paused()) void p.play();
      else p.pause();
    },
    j: () => seekBy(-10),
    l: () => seekBy(10),
    ArrowLeft: () => stepFrames(-1),
    ArrowRight: () => stepFrames(1),
  };
}
