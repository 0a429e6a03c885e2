import type { NextConfig } from "next";

const config: NextConfig = {
  // Workspace packages ship TypeScript source; Next compiles them like app code.
  transpilePackages: [
    "@paravt/api",
    "@paravt/auth",
    "@paravt/shared",
    "@paravt/protocol",
    "@paravt/db",
    "@paravt/video",
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
};

export default config;
