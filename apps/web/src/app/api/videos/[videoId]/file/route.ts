import { restVideos } from "@paravt/api";

export const dynamic = "force-dynamic";
// HEAD too: players probe the size before asking for ranges.
export const GET = restVideos.videoFile;
export const HEAD = restVideos.videoFile;
