import fs from "node:fs";
import { Readable } from "node:stream";
import { HttpError } from "./handler";
import { parseRange } from "./range";

/** Streams a file with Range support (206 / 416), never loading it into memory. */
export async function serveFile(
  req: Request,
  file: string,
  contentType: string,
  opts: { cacheControl?: string } = {},
): Promise<Response> {
  let size: number;
  let mtime: Date;
  try {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) throw new Error("not a file");
    size = stat.size;
    mtime = stat.mtime;
  } catch {
    throw new HttpError(404, "The file is missing on the server");
  }
  const base: Record<string, string> = {
    "content-type": contentType,
    "accept-ranges": "bytes",
    "last-modified": mtime.toUTCString(),
    "cache-control": opts.cacheControl ?? "private, max-age=300",
  };
  const range = parseRange(req.headers.get("range"), size);
  if (range.kind === "unsatisfiable") {
    throw new HttpError(416, `Range not satisfiable: ${range.reason}`, { "content-range": `bytes */${size}` });
  }
  const head = req.method === "HEAD";
  if (range.kind === "full") {
    const body = head ? null : (Readable.toWeb(fs.createReadStream(file)) as ReadableStream);
    return new Response(body, { status: 200, headers: { ...base, "content-length": String(size) } });
  }
  const { start, end } = range;
  const body = head ? null : (Readable.toWeb(fs.createReadStream(file, { start, end })) as ReadableStream);
  return new Response(body, {
    status: 206,
    headers: { ...base, "content-length": String(end - start + 1), "content-range": `bytes ${start}-${end}/${size}` },
  });
}
