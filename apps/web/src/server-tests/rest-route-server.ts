// The web app's real REST route (/api/v1, app/api/v1/[...path]/route.ts) behind a plain Node HTTP
// server on a free port, so the CLI's own HTTP client talks to it as to a running workbench (the
// CLI integration tests). `before` may answer a request itself (a scripted 503) instead.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { main } from "@paravt/cli";
import * as route from "../app/api/v1/[...path]/route";

export interface RestRouteServer {
  base: string;
  close(): Promise<void>;
}

export async function startRestRouteServer(before?: (res: http.ServerResponse) => boolean): Promise<RestRouteServer> {
  let base = "";
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        if (before?.(res)) return;
        const method = (req.method ?? "GET") as keyof typeof route;
        const handler = route[method] as (
          r: Request,
          ctx: { params: Promise<{ path: string[] }> },
        ) => Promise<Response>;
        const url = new URL(req.url ?? "/", base);
        const request = new Request(url, {
          method,
          headers: req.headers as Record<string, string>,
          ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
        });
        const segments = url.pathname
          .replace(/^\/api\/v1\/?/, "")
          .split("/")
          .filter(Boolean);
        const answer = await handler(request, { params: Promise.resolve({ path: segments }) });
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        res.end(Buffer.from(await answer.arrayBuffer()));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Runs the `paravt` CLI in this process with `stdin`, collecting what it prints. */
export async function runCli(argv: string[], stdin = ""): Promise<{ code: number; out: string; err: string }> {
  const input = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (c: Buffer) => (out += c.toString()));
  stderr.on("data", (c: Buffer) => (err += c.toString()));
  input.end(stdin);
  const code = await main(argv, { stdin: input, stdout, stderr });
  return { code, out, err };
}
