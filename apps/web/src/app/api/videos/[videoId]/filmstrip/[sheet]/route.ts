import { restVideos } from "@paravt/api";

export const dynamic = "force-dynamic";
export const GET = restVideos.videoFilmstripSheet;
