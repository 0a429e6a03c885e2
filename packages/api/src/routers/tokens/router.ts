import {
  tokenAuditInput,
  tokenAuditOutput,
  tokenCreatedOutput,
  tokenCreateInput,
  tokenOutput,
  tokenRevokeInput,
} from "@paravt/shared";
import { ForbiddenError } from "@paravt/shared";
import { tokens } from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectOwnerProcedure } from "../../trpc";

// Token management is for people: a token cannot mint, list or audit tokens (and these
// procedures are not part of the REST API).
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
  /** The audit log: requests made with the project's tokens (or one token's), newest first. */
  audit: ownerInBrowser
    .input(tokenAuditInput)
    .output(tokenAuditOutput)
    .query(({ ctx, input }) => {
      const { projectId: _projectId, ...page } = input;
      return tokens.listTokenUses(ctx.access, page);
    }),
});
