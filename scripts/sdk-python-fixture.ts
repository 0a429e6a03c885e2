// The people and tokens the Python SDK's tests use against a real workbench (the `python` phase of
// scripts/test.mjs, bench/sdk): a fresh user owning two projects, a READ+WRITE token of the first
// (the SDK writes with it, the tests read back with it) and a WRITE token of the second (the
// "token of another project" case). Prints one JSON object on stdout. The rate limit is the
// highest allowed so that the tests and the benchmark measure the SDK, not the limiter; the
// SDK's handling of 429 is tested against a local stand-in instead.
import { createUser } from "@paravt/db/factories";
import { MAX_TOKEN_RATE_LIMIT } from "@paravt/shared";
import { closeEventBus, closeQueues, db, projectAccess, projects, redis, tokens } from "@paravt/shared/server";

async function main(): Promise<void> {
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const user = await createUser(db(), { name: "Python SDK tests", email: `sdk-python-${stamp}@example.test` });
  const made = [];
  for (const [name, scopes] of [
    [`Python SDK ${stamp}`, ["READ", "WRITE"]],
    [`Python SDK other ${stamp}`, ["WRITE"]],
  ] as const) {
    const project = await projects.createProject(user.id, { name, description: "Created by the SDK tests" });
    const access = await projectAccess({ kind: "user", userId: user.id }, project.id);
    const { secret } = await tokens.createToken(access, {
      name: "sdk tests",
      scopes: [...scopes],
      expiresInDays: 1,
      rateLimitPerMinute: MAX_TOKEN_RATE_LIMIT,
    });
    made.push({ projectId: project.id, token: secret });
  }
  const [main, other] = made;
  console.log(
    JSON.stringify({
      projectId: main!.projectId,
      token: main!.token,
      otherProjectId: other!.projectId,
      otherToken: other!.token,
    }),
  );
}

try {
  await main();
} finally {
  await closeQueues();
  await closeEventBus();
  await redis().quit();
  await db().$disconnect();
}
