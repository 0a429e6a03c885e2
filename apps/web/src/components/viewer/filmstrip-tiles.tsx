"use client";
import { capEvenly } from "@paravt/shared";
import { filmstripTileAt, type FilmstripIndex } from "@paravt/video/sampling";
import { useQuery } from "@tanstack/react-query";

export type Filmstrip = FilmstripIndex & { duration: number };

/** The filmstrip index of a video (one JSON request; the sprite sheets are then plain cached images). */
export function useFilmstrip(videoId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: ["filmstrip", videoId],
    enabled: enabled && videoId !== null,
    staleTime: Infinity,
    queryFn: async () => {
      const res = await fetch(`/api/videos/${videoId}/filmstrip`);
      if (!res.ok) throw new Error(`filmstrip: ${res.status}`);
      return (await res.json()) as Filmstrip;
    },
  });
}

/** Up to `max` of `times`, evenly picked, first and last included (the grid's `capEvenly`). */
export const pickEven = (times: readonly number[], max: number): number[] => capEvenly(times, max);

/**
 * Frames at given times drawn from the filmstrip sprite sheets (`/filmstrip/<sheet>`): the tile of
 * the slice holding each time. All tiles of a sheet share one image request, so a popover over a
 * 1-hour video costs no per-frame requests.
 */
export function FilmstripTiles({
  videoId,
  filmstrip,
  times,
  scale = 1,
}: {
  videoId: string;
  filmstrip: Filmstrip;
  times: readonly number[];
  scale?: number;
}) {
  const n = filmstrip.frames.length;
  return (
    <div className="flex gap-1" data-testid="window-frames">
      {times.map((t, i) => {
        const tile = filmstrip.frames[filmstripTileAt(t, filmstrip.duration, n)]!;
        const sheetW = filmstrip.columns * filmstrip.tileWidth;
        return (
          <div key={i} className="flex flex-col items-center gap-0.5">
            <div
              data-testid="window-frame"
              data-sheet={tile.sheet}
              className="rounded-sm bg-surface-2"
              style={{
                width: filmstrip.tileWidth * scale,
                height: filmstrip.tileHeight * scale,
                backgroundImage: `url(/api/videos/${videoId}/filmstrip/${tile.sheet})`,
                backgroundPosition: `-${tile.x * scale}px -${tile.y * scale}px`,
                backgroundSize: scale === 1 ? undefined : `${sheetW * scale}px auto`,
              }}
            />
            <span className="font-mono text-[10px] text-muted">{t.toFixed(1)}</span>
          </div>
        );
      })}
    </div>
  );
}
