import { restVideos } from "@paravt/api";

export const dynamic = "force-dynamic";
/** `?t=<seconds>`: one frame as the model sees it (SPEC §1 pixel bounds, JPEG q85). */
export const GET = restVideos.videoFrame;
