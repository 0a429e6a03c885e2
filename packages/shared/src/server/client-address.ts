// The network address of the client behind a request (issue 37 item 10): the one definition used
// by the sign-in limiter and better-auth (packages/auth) and by the token audit log
// (packages/api context.ts, rest/handler.ts).
//
// A route handler sees no socket address, only headers, and any client can send X-Forwarded-For:
// believing it let a client pick a fresh address per request. So a header is believed only when
// TRUSTED_PROXY_HEADER names it, i.e. when the deployment has a reverse proxy that sets it, and
// then only its RIGHT-most entry: a proxy appends the address of the peer it received the request
// from (nginx `$proxy_add_x_forwarded_for`), so everything left of that entry came from the client.
// This is one trusted hop (Express's `trust proxy = 1`); behind a chain of proxies, have the
// outermost one set a header of its own (X-Real-IP, CF-Connecting-IP, ...) and name that one.
import net from "node:net";
import { serverEnv } from "./env";

/**
 * The client's address as the trusted proxy reported it, or null: no trusted header configured,
 * the header absent, or its right-most entry not a plain IPv4 / IPv6 address (no port, no zone).
 */
export function clientAddress(
  headers: Headers,
  trustedHeader: string | undefined = serverEnv().TRUSTED_PROXY_HEADER,
): string | null {
  if (!trustedHeader) return null;
  const value = headers.get(trustedHeader);
  if (!value) return null;
  const last = value.split(",").at(-1)!.trim().toLowerCase();
  return net.isIP(last) !== 0 && !last.includes("%") ? last : null;
}

/** The eight 16-bit groups of an IPv6 address, an embedded IPv4 tail included. */
function ipv6Groups(address: string): number[] {
  let a = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (v4) {
    const [b0, b1, b2, b3] = v4.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, v4.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head = "", tail] = a.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const zeros: string[] = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((g) => Number.parseInt(g, 16));
}

/**
 * The bucket an address is counted in by per-address limits: an IPv4 address itself (an
 * IPv4-mapped IPv6 address too), an IPv6 address by its /64, since one subscriber usually holds a
 * whole /64 and could otherwise rotate through it.
 */
export function addressBucket(address: string): string {
  if (net.isIPv4(address)) return address;
  const g = ipv6Groups(address);
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    return [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff].join(".");
  }
  return `${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(":")}::/64`;
}
