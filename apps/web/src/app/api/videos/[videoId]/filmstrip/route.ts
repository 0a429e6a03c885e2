import { restVideos } from "@paravt/api";

export const dynamic = "force-dynamic";
/** The sprite index (JSON): tile size, grid, and the timestamp of every tile. */
export const GET = restVideos.videoFilmstripIndex;
