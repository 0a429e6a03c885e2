// The app's plumbing files (issue 41 item 10): an icon (no favicon 404), a styled not-found page
// with the way home, and loading skeletons for the project pages that fetch. Next.js picks these
// up by file name (app/icon.svg, app/favicon.ico, not-found.tsx, loading.tsx), so a missing or
// renamed file is the failure this test catches; e2e/specs/platform/app-shell.spec.ts checks them
// in the browser.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const app = import.meta.dirname;
const project = path.join(app, "(app)", "projects", "[projectId]");

describe("app icon", () => {
  it("app/icon.svg is an SVG and app/favicon.ico an ICO holding a 32x32 PNG", () => {
    const svg = fs.readFileSync(path.join(app, "icon.svg"), "utf8");
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*viewBox="0 0 32 32"/);
    const ico = fs.readFileSync(path.join(app, "favicon.ico"));
    expect([...ico.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]); // reserved, type 1 (icon), 1 image
    expect([ico[6], ico[7]]).toEqual([32, 32]);
    expect(ico.subarray(22, 26).toString("latin1")).toBe("\x89PNG");
  });
});

describe("not-found page", () => {
  it("exists at the root of app/ and links back to the projects", () => {
    const src = fs.readFileSync(path.join(app, "not-found.tsx"), "utf8");
    expect(src).toMatch(/export default function NotFound/);
    expect(src).toContain('href="/projects"');
    expect(src).toContain("Page not found");
  });
});

describe("loading skeletons", () => {
  it.each([
    ["the project overview", "loading.tsx"],
    ["a run page (training and eval)", "runs/[runId]/loading.tsx"],
    ["jobs", "jobs/loading.tsx"],
    ["training", "training/loading.tsx"],
    ["evaluations", "evals/loading.tsx"],
    ["an evaluation group", "evals/[groupId]/loading.tsx"],
    ["models", "models/loading.tsx"],
  ])("%s has a loading.tsx made of the skeleton blocks", (_, file) => {
    const src = fs.readFileSync(path.join(project, file), "utf8");
    expect(src).toMatch(/export default function Loading/);
    expect(src).toContain("<SkeletonPage>");
  });

  it("the skeleton is a busy status with a screen-reader label, in the app's tokens", () => {
    // (Vitest here does not compile JSX: the Next.js tsconfig keeps it as is; the browser check is e2e.)
    const src = fs.readFileSync(path.join(app, "..", "components", "ui", "skeleton.tsx"), "utf8");
    expect(src).toContain('role="status" aria-busy="true"');
    expect(src).toContain('<span className="sr-only">{label}</span>');
    expect(src).toContain("animate-pulse rounded-md bg-surface-2");
  });

  it("the project layout shows a skeleton while the project loads, not an empty page", () => {
    const src = fs.readFileSync(path.join(project, "layout.tsx"), "utf8");
    expect(src).toContain("{project.data ? children : <PageSkeleton />}");
  });
});
