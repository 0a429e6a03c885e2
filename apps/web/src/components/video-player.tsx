"use client";
import { useEffect, useRef } from "react";
import videojs from "video.js";
import "video.js/dist/video-js.css";

type Player = ReturnType<typeof videojs>;

/**
 * A video.js player. The element is created imperatively inside a container so React never
 * owns the DOM video.js rewrites (and Strict Mode's double mount disposes cleanly).
 */
export function VideoPlayer({
  src,
  poster,
  onReady,
  onTime,
}: {
  src: string;
  poster?: string;
  onReady: (player: Player) => void;
  onTime: (t: number) => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onReady, onTime });
  callbacks.current = { onReady, onTime };

  useEffect(() => {
    const el = document.createElement("video-js");
    el.classList.add("vjs-big-play-centered", "vjs-fluid");
    container.current!.appendChild(el);
    const player = videojs(el, {
      controls: true,
      preload: "auto",
      fluid: true,
      playbackRates: [0.5, 1, 1.5, 2, 4],
      poster,
      sources: [{ src, type: "video/mp4" }],
      userActions: { hotkeys: false }, // the page owns the keyboard (see useHotkeys)
    });
    player.on("timeupdate", () => callbacks.current.onTime(player.currentTime() ?? 0));
    player.on("seeked", () => callbacks.current.onTime(player.currentTime() ?? 0));
    player.ready(() => callbacks.current.onReady(player));
    return () => player.dispose();
  }, [src, poster]);

  return (
    <div
      ref={container}
      data-testid="video-player"
      className="overflow-hidden rounded-lg border border-line bg-black"
    />
  );
}

export type { Player };
