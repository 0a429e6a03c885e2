// The security headers Next.js adds to every answer (issue 37, item 12), read from the real
// next.config.ts: what the browser is forbidden (framing, sniffing, foreign scripts, referrers) and
// what the app must keep (Next.js inline scripts, video.js data:/blob: sources).
import { describe, expect, it } from "vitest";
import config, { contentSecurityPolicy } from "../../next.config";

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(";").map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values];
    }),
  );
}

describe("security headers", () => {
  it("are sent on every path", async () => {
    const rules = await config.headers!();
    const all = rules.find((r) => r.source === "/:path*");
    expect(all).toBeDefined();
    const headers = Object.fromEntries(all!.headers.map((h) => [h.key.toLowerCase(), h.value]));
    expect(headers).toMatchObject({
      "x-content-type-options": "nosniff",
      "referrer-policy": "same-origin",
      "x-frame-options": "DENY",
    });
    const csp = directives(headers["content-security-policy"]!);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("default-src")).toEqual(["'self'"]);
  });

  it("keep what the app needs, and eval only in development", () => {
    const prod = directives(contentSecurityPolicy(false));
    // Next.js bootstrap scripts and the theme script are inline.
    expect(prod.get("script-src")).toEqual(["'self'", "'unsafe-inline'"]);
    // video.js: icon font as data:, blob: media sources and worker; object-URL downloads.
    expect(prod.get("font-src")).toContain("data:");
    expect(prod.get("img-src")).toEqual(expect.arrayContaining(["data:", "blob:"]));
    expect(prod.get("media-src")).toContain("blob:");
    expect(prod.get("worker-src")).toContain("blob:");
    expect(directives(contentSecurityPolicy(true)).get("script-src")).toContain("'unsafe-eval'");
  });
});
