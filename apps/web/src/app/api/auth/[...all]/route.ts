import { auth } from "@paravt/auth";

export const dynamic = "force-dynamic";

// better-auth's handler: sign-up, sign-in, sign-out, session.
export const GET = (req: Request) => auth().handler(req);
export const POST = (req: Request) => auth().handler(req);
