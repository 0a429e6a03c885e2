"use client";
import { useEffect, useRef } from "react";

export interface EpisodeHotkeyActions {
  togglePlay(): void;
  seekBy(seconds: number): void;
  stepFrames(n: number): void;
  prevWindow(): void;
  nextWindow(): void;
  toggleHelp(): void;
  escape(): void;
}

export const EPISODE_HOTKEYS: [string, string][] = [
  ["Space", "play / pause"],
  ["j / l", "back / forward 10 s"],
  ["← / →", "previous / next frame"],
  ["[ / ]", "previous / next crop window (time order, all turns)"],
  ["Esc", "stop looping a window, close this help"],
  ["?", "show / hide this help"],
];

/**
 * Keyboard control of the episode viewer; ignored while typing in a form field, and with a
 * modifier held (browser shortcuts). Actions are read through a ref so callers may pass a new
 * object each render without re-binding the listener.
 */
export function useEpisodeHotkeys(actions: EpisodeHotkeyActions) {
  const ref = useRef(actions);
  useEffect(() => {
    ref.current = actions;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      const a = ref.current;
      const map: Record<string, () => void> = {
        " ": a.togglePlay,
        j: () => a.seekBy(-10),
        l: () => a.seekBy(10),
        ArrowLeft: () => a.stepFrames(-1),
        ArrowRight: () => a.stepFrames(1),
        "[": a.prevWindow,
        "]": a.nextWindow,
        "?": a.toggleHelp,
        Escape: a.escape,
      };
      const fn = map[e.key];
      if (fn) {
        e.preventDefault();
        fn();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
