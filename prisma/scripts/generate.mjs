// `npm run generate`: writes the Prisma client to prisma/generated/client (git-ignored).
import { runPrisma } from "./prisma-offline.mjs";

process.stdout.write(runPrisma(["generate", "--no-hints"]));
