// Browser side of better-auth; same-origin, so no base URL is needed.
import { createAuthClient } from "better-auth/react";

export const authClient = createAuthClient();
export const { signIn, signUp, signOut, useSession } = authClient;
