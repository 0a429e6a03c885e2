import { tokenCreatedOutput, tokenCreateInput, tokenOutput, tokenRevokeInput } from "@paravt/shared";
import { ForbiddenError } from "@paravt/shared";
import { tokens } from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectOwnerProcedure } from "../../trpc";

// Token management is for people: a token cannot mint or list tokens.
const ownerInBrowser = projectOwnerProcedure.use(({ ctx, next }) => {
  if (ctx.principal.kind === "token") throw new ForbiddenError("API tokens cannot manage API tokens");
  return next();
});

export const tokensRouter = createTRPCRouter({
  list: ownerInBrowser.output(z.array(tokenOutput)).query(({ ctx }) => tokens.listTokens(ctx.access)),
  create: ownerInBrowser
    .input(tokenCreateInput)
    .output(tokenCreatedOutput)
    .mutation(({ ctx, input }) => tokens.createToken(ctx.access, input)),
  revoke: ownerInBrowser
    .input(tokenRevokeInput)
    .output(tokenOutput)
    .mutation(({ ctx, input }) => tokens.revokeToken(ctx.access, input.tokenId)),
});
