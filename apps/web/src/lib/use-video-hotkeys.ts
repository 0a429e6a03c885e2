"use client";
import { useEffect } from "react";

export interface HotkeyActions {
  togglePlay(): void;
  seekBy(seconds: number): void;
  stepFrames(n: number): void;
  prevTick(): void;
  nextTick(): void;
  toggleHelp(): void;
}

export const VIDEO_HOTKEYS: [string, string][] = [
  ["Space", "play / pause"],
  ["j / l", "back / forward 10 s"],
  ["← / →", "previous / next frame"],
  ["[ / ]", "previous / next overview frame"],
  ["?", "show / hide this help"],
];

/** Keyboard control of a video page; ignored while typing in a form field. */
export function useVideoHotkeys(actions: HotkeyActions) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      const map: Record<string, () => void> = {
        " ": actions.togglePlay,
        j: () => actions.seekBy(-10),
        l: () => actions.seekBy(10),
        ArrowLeft: () => actions.stepFrames(-1),
        ArrowRight: () => actions.stepFrames(1),
        "[": actions.prevTick,
        "]": actions.nextTick,
        "?": actions.toggleHelp,
      };
      const fn = map[e.key];
      if (fn) {
        e.preventDefault();
        fn();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [actions]);
}
