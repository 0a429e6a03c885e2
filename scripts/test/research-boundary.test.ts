// The lab's wing (research/README.md): nothing in the product (apps/ packages/ workers/ kernels/
// prisma/) may import research/. `npm run lint` enforces it with the dependency-cruiser rule
// `product-does-not-import-research`; this test plants a violation in a scratch tree laid out like
// the repository and runs the real dependency-cruiser with the repository's own config on it.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const CLI = path.join(ROOT, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
const scratch = mkdtempSync(path.join(tmpdir(), "research-boundary-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(scratch, rel)), { recursive: true });
  writeFileSync(path.join(scratch, rel), text);
}

function cruise(): { status: number | null; out: string } {
  const r = spawnSync(
    process.execPath,
    [CLI, "--config", path.join(ROOT, ".dependency-cruiser.cjs"), "--output-type", "err", "packages", "research"],
    { cwd: scratch, encoding: "utf8" },
  );
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("research/ boundary (dependency-cruiser)", () => {
  copyFileSync(path.join(ROOT, "tsconfig.base.json"), path.join(scratch, "tsconfig.base.json"));
  write("packages/nano/src/trainer.ts", "export const steps = 1;\n");
  // The lab may use the product.
  write(
    "research/curricula/lab.ts",
    'import { steps } from "../../packages/nano/src/trainer";\nexport const lab = steps;\n',
  );

  it("lets research/ import the product", () => {
    const r = cruise();
    expect(r.out).not.toContain("product-does-not-import-research");
    expect(r.status).toBe(0);
  });

  it("fails when product code imports research/", () => {
    write(
      "packages/nano/src/planted.ts",
      'import { lab } from "../../../research/curricula/lab";\nexport const x = lab;\n',
    );
    const r = cruise();
    expect(r.status).not.toBe(0);
    expect(r.out).toContain("product-does-not-import-research");
    expect(r.out).toContain("packages/nano/src/planted.ts");
  });
});
