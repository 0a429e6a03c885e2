import {
  tokenAuditInput,
  tokenAuditOutput,
  tokenCreatedOutput,
  tokenCreateInput,
  tokenOutput,
  tokenRevokeInput,
} from "@paravt/shared";
import { tokens } from "@paravt/shared/server";
import { z } from "zod";
import { createTRPCRouter, projectOwnerProcedure } from "../../trpc";

// Token management is for people: a token cannot mint, list or audit tokens (owner procedures
// declare scope PEOPLE, so a token is refused; these procedures are not part of the REST API).

export const tokensRouter = createTRPCRouter({
  list: projectOwnerProcedure.output(z.array(tokenOutput)).query(({ ctx }) => tokens.listTokens(ctx.access)),
  create: projectOwnerProcedure
    .input(tokenCreateInput)
    .output(tokenCreatedOutput)
    .mutation(({ ctx, input }) => tokens.createToken(ctx.access, input)),
  revoke: projectOwnerProcedure
    .input(tokenRevokeInput)
    .output(tokenOutput)
    .mutation(({ ctx, input }) => tokens.revokeToken(ctx.access, input.tokenId)),
  /** The audit log: requests made with the project's tokens (or one token's), newest first. */
  audit: projectOwnerProcedure
    .input(tokenAuditInput)
    .output(tokenAuditOutput)
    .query(({ ctx, input }) => {
      const { projectId: _projectId, ...page } = input;
      return tokens.listTokenUses(ctx.access, page);
    }),
});
