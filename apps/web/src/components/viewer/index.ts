// The episode viewer's reusable parts: the lanes timeline (one group of lanes per model on a
// shared time axis), its data model, the window popover and filmstrip tiles, the playback clock.
export { TimelineLanes, TimelineLanes as EpisodeLanes, type TimelineLanesProps } from "./timeline-lanes";
export {
  laneGroupOf,
  packRows,
  parseWindowId,
  spanOf,
  spanPct,
  stepWindow,
  timePct,
  windowId,
  windowsInTimeOrder,
  type LaneGroup,
  type LaneSpan,
  type LaneWindow,
} from "./lane-model";
export { laneBg, laneBorder, laneColor } from "./lane-colors";
export { WindowPopover } from "./window-popover";
export { TimeReadout } from "./time-readout";
export { LanesPlayer, LANES_PLAYER_HOTKEYS } from "./lanes-player";
export { FilmstripTiles, pickEven, useFilmstrip, type Filmstrip } from "./filmstrip-tiles";
export { createPlaybackClock, usePlaybackClockState, usePlaybackTime, type PlaybackClock } from "@/lib/playback-clock";
