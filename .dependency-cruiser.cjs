// The dependency direction of STYLE.md, enforced by `npm run lint`:
//   apps/* -> packages/api -> packages/* -> prisma ;  workers -> packages/* -> prisma
//   research/ (the lab) -> anything ; nothing in the product imports research/
// nothing imports apps/ or workers/; client-safe code imports no server-only code.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      from: { pathNot: "node_modules" },
      to: { circular: true, pathNot: "node_modules" },
    },
    {
      name: "product-does-not-import-research",
      comment:
        "research/ is the lab (probes, curricula, the PyTorch mirror, recipes): it may use the product, never the reverse (research/README.md).",
      severity: "error",
      from: { path: "^(apps|packages|workers|kernels|prisma)/" },
      to: { path: "^research/" },
    },
    {
      name: "nothing-imports-apps-or-workers",
      comment: "apps/ and workers/ are deployables: leaves of the graph.",
      severity: "error",
      from: { pathNot: "^(apps|workers)/" },
      to: { path: "^(apps|workers)/" },
    },
    {
      name: "workers-do-not-import-api",
      comment: "Workers call services, never the HTTP/tRPC layer.",
      severity: "error",
      from: { path: "^workers/" },
      to: { path: "^packages/api/" },
    },
    {
      name: "packages-do-not-import-api",
      comment: "Only apps use the API package.",
      severity: "error",
      from: { path: "^packages/(?!api/)" },
      to: { path: "^packages/api/" },
    },
    {
      name: "prisma-is-the-bottom",
      comment: "The database package imports no workspace package.",
      severity: "error",
      from: { path: "^prisma/" },
      to: { path: "^(packages|apps|workers)/" },
    },
    {
      name: "protocol-is-pure",
      comment: "The protocol package is client-safe: no Node built-ins, no other workspace package.",
      severity: "error",
      from: { path: "^packages/protocol/src/" },
      to: {
        path: "^(packages/(?!protocol/)|prisma/|apps/|workers/)|^node:|^(fs|path|child_process|crypto|os)$",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "protocol-no-node-builtins",
      severity: "error",
      from: { path: "^packages/protocol/src/" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "shared-client-entry-is-client-safe",
      comment: "@paravt/shared (not /server) is imported by the browser.",
      severity: "error",
      from: { path: "^packages/shared/src/(?!server/)" },
      to: { path: "^(packages/shared/src/server/|prisma/)" },
    },
    {
      name: "shared-client-entry-no-node-builtins",
      severity: "error",
      from: { path: "^packages/shared/src/(?!server/)" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "video-sampling-is-client-safe",
      severity: "error",
      from: { path: "^packages/video/src/(sampling|errors)\\.ts$" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "web-client-code-does-not-import-server-entries",
      comment: "Browser components and hooks must not pull in Prisma, Redis or ffmpeg.",
      severity: "error",
      from: { path: "^apps/web/src/(components|trpc|lib/use-)" },
      to: {
        path: "^(packages/shared/src/server/|packages/video/src/(?!sampling|errors)|packages/api/src/(?!index|root)|prisma/)",
        dependencyTypesNot: ["type-only"],
      },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(node_modules|\\.next|var|bench/out)" },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
