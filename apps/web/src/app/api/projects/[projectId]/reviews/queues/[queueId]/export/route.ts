import { restReviews } from "@paravt/api";

export const dynamic = "force-dynamic";
export const GET = restReviews.exportQueue;
