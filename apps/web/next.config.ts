import type { NextConfig } from "next";

/**
 * Content-Security-Policy of every answer (issue 37, item 12). What the app needs, and why:
 * - script-src 'unsafe-inline': Next.js inlines its bootstrap/flight scripts and we inline the
 *   theme script (layout.tsx); nonces would force every page to render dynamically. Development
 *   also needs 'unsafe-eval' (React Refresh) and ws: (hot reload).
 * - style-src 'unsafe-inline': React style attributes and the styles video.js injects.
 * - img-src data: blob:, media-src blob:, worker-src blob:, font-src data:: video.js (its icon
 *   font is a data: URL; its streaming engine uses blob: media sources and a blob: worker) and
 *   the downloads made with object URLs.
 * - frame-ancestors 'none': no site may frame the workbench (clickjacking); object-src 'none',
 *   base-uri and form-action 'self' close the classic injection escapes.
 */
export function contentSecurityPolicy(dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Headers of every answer, pages and API alike. */
export function securityHeaders(dev: boolean): { key: string; value: string }[] {
  return [
    { key: "Content-Security-Policy", value: contentSecurityPolicy(dev) },
    // Browsers without CSP frame-ancestors honour this one.
    { key: "X-Frame-Options", value: "DENY" },
    // A file served by /api/videos/... is never run as a script or page because of its bytes.
    { key: "X-Content-Type-Options", value: "nosniff" },
    // Project and run ids in our URLs stay with us; other sites see no referrer.
    { key: "Referrer-Policy", value: "same-origin" },
  ];
}

const config: NextConfig = {
  // Workspace packages ship TypeScript source; Next compiles them like app code.
  transpilePackages: [
    "@paravt/api",
    "@paravt/auth",
    "@paravt/shared",
    "@paravt/protocol",
    "@paravt/db",
    "@paravt/video",
    // Only their pure entries (`@paravt/agent/prompts`, `@paravt/nano/tokenizer`): the episode
    // transcript renders prompts with the runner's own templates.
    "@paravt/agent",
    "@paravt/nano",
  ],
  // Native or worker-style server dependencies stay plain Node requires.
  serverExternalPackages: [
    "bullmq",
    "ioredis",
    "pg",
    "@prisma/client",
    "@prisma/adapter-pg",
    "node-av",
    "sharp",
    "@ffmpeg-installer/ffmpeg",
  ],
  reactStrictMode: true,
  poweredByHeader: false,
  // Lint and typecheck run from the repository root (npm run lint / typecheck).
  typescript: { ignoreBuildErrors: true },
  // `next dev` runs with NODE_ENV=development; `next build` bakes the production headers in.
  headers: async () => [{ source: "/:path*", headers: securityHeaders(process.env.NODE_ENV === "development") }],
};

export default config;
