// Which model endpoints the workers may call. A model record's base URL is chosen by a project
// member, and the worker that calls it sits inside the cluster: without a check, a URL could
// point at the cloud metadata service or link-local addresses and leak credentials. Hosts on
// the allowlist (MODEL_ENDPOINT_ALLOW) pass regardless; everything else must not be link-local,
// a metadata address or an unspecified address. Private ranges (10/8, 192.168/16, ...) are
// allowed: GPU servers usually live there.
import dns from "node:dns/promises";
import net from "node:net";
import { ValidationError } from "../errors";

const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata", "metadata.azure.com", "instance-data"]);

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d` or `::ffff:a9fe:a9fe`). */
function mappedV4(ip: string): string | null {
  const m = /^::ffff:(.+)$/i.exec(ip);
  if (!m) return null;
  if (net.isIPv4(m[1]!)) return m[1]!;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(m[1]!);
  if (!hex) return null;
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
}

function isForbiddenAddress(ip: string): string | null {
  const v4 = net.isIPv4(ip) ? ip : mappedV4(ip);
  if (v4) {
    const [a, b] = v4.split(".").map(Number);
    if (a === 169 && b === 254) return "a link-local / cloud-metadata address (169.254.0.0/16)";
    if (a === 0) return "an unspecified address (0.0.0.0/8)";
    if (a === 100 && b === 100) return "a cloud-metadata address (100.100.0.0/16)";
    return null;
  }
  const lower = ip.toLowerCase();
  if (/^fe[89ab][0-9a-f]:/.test(lower)) return "an IPv6 link-local address (fe80::/10)";
  if (lower === "::") return "the unspecified IPv6 address";
  if (lower.startsWith("fd00:ec2:")) return "the AWS IPv6 metadata address";
  return null;
}

function hostAllowed(host: string, allow: readonly string[]): boolean {
  return allow.some((pattern) =>
    pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) : host === pattern.toLowerCase(),
  );
}

/** Checks a base URL's scheme and literal host (no DNS): run when a model record is saved. */
export function checkEndpointUrl(raw: string, allow: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError(`Not a URL: ${raw}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ValidationError(`Model endpoints must be http(s) URLs (got ${url.protocol})`);
  }
  if (url.username || url.password) throw new ValidationError("Put the API key in its own field, not in the URL");
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (hostAllowed(host, allow)) return url;
  if (METADATA_HOSTS.has(host)) throw new ValidationError(`${host} is a cloud-metadata host and is not allowed`);
  const reason = net.isIP(host) ? isForbiddenAddress(host) : null;
  if (reason) throw new ValidationError(`${host} is ${reason}; add it to MODEL_ENDPOINT_ALLOW to use it anyway`);
  return url;
}

/** The same check after DNS resolution: run by the engine right before it connects. */
export async function checkEndpointResolves(url: URL, allow: readonly string[]): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (hostAllowed(host, allow)) return;
  const addresses = net.isIP(host) ? [{ address: host }] : await dns.lookup(host, { all: true });
  for (const { address } of addresses) {
    const reason = isForbiddenAddress(address);
    if (reason) throw new ValidationError(`${host} resolves to ${address}, ${reason}`);
  }
}
