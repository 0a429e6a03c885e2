import { restVideos } from "@paravt/api";
import { sameOriginOnly } from "../../../../../../lib/same-origin";

export const dynamic = "force-dynamic";
// A cross-site POST with the session cookie is refused before a byte is stored (issue 37, item 12).
export const POST = sameOriginOnly(restVideos.uploadVideo);
