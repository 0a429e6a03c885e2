import { authHandler } from "@paravt/auth";

export const dynamic = "force-dynamic";

// better-auth's handler: sign-up, sign-in (limited per account and address), sign-out, session;
// authHandler hands it the client address of TRUSTED_PROXY_HEADER, never a client's own claim.
export const GET = (req: Request) => authHandler(req);
export const POST = (req: Request) => authHandler(req);
