// The client address behind a request (issue 37 item 10): a forwarded header is believed only
// when TRUSTED_PROXY_HEADER names it, and then only its right-most entry (the one the proxy added).
import { describe, expect, it } from "vitest";
import { addressBucket, clientAddress } from "./client-address";
import { EnvError, parseServerEnv } from "./env";

const h = (init: Record<string, string>) => new Headers(init);

describe("clientAddress", () => {
  it("believes no header when no trusted header is configured", () => {
    const headers = h({ "x-forwarded-for": "203.0.113.7", "x-real-ip": "203.0.113.8" });
    expect(clientAddress(headers, undefined)).toBeNull();
  });

  it("takes the right-most X-Forwarded-For entry: the left ones are whatever the client sent", () => {
    expect(clientAddress(h({ "x-forwarded-for": "203.0.113.7" }), "x-forwarded-for")).toBe("203.0.113.7");
    expect(clientAddress(h({ "x-forwarded-for": "1.2.3.4, 10.0.0.9,198.51.100.2 " }), "x-forwarded-for")).toBe(
      "198.51.100.2",
    );
    expect(clientAddress(h({ "x-forwarded-for": "spoofed, 2001:DB8::1" }), "x-forwarded-for")).toBe("2001:db8::1");
  });

  it("reads only the configured header", () => {
    const headers = h({ "x-forwarded-for": "1.2.3.4", "x-real-ip": "198.51.100.3" });
    expect(clientAddress(headers, "x-real-ip")).toBe("198.51.100.3");
    expect(clientAddress(h({ "x-forwarded-for": "1.2.3.4" }), "x-real-ip")).toBeNull();
  });

  it("refuses what is not a plain address", () => {
    for (const value of ["", "unknown", "1.2.3.4:5678", "[2001:db8::1]", "fe80::1%eth0", "1.2.3.4, "]) {
      expect(clientAddress(h({ "x-real-ip": value }), "x-real-ip")).toBeNull();
    }
  });
});

describe("addressBucket", () => {
  it("keeps IPv4, unwraps IPv4-mapped IPv6 and groups IPv6 by /64", () => {
    expect(addressBucket("198.51.100.2")).toBe("198.51.100.2");
    expect(addressBucket("::ffff:198.51.100.2")).toBe("198.51.100.2");
    expect(addressBucket("::ffff:c633:6402")).toBe("198.51.100.2");
    expect(addressBucket("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8:1:2::ffff")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
  });
});

describe("TRUSTED_PROXY_HEADER", () => {
  const base = {
    DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/x",
    REDIS_URL: "redis://127.0.0.1:6379/0",
    AUTH_SECRET: "x".repeat(32),
  };

  it("is unset by default and when empty; a header name is trimmed and lower-cased", () => {
    expect(parseServerEnv(base).TRUSTED_PROXY_HEADER).toBeUndefined();
    expect(parseServerEnv({ ...base, TRUSTED_PROXY_HEADER: "" }).TRUSTED_PROXY_HEADER).toBeUndefined();
    expect(parseServerEnv({ ...base, TRUSTED_PROXY_HEADER: " X-Real-IP " }).TRUSTED_PROXY_HEADER).toBe("x-real-ip");
  });

  it("refuses what is not one header name, and Forwarded (not parsed)", () => {
    for (const bad of ["x-forwarded-for, x-real-ip", "x real ip", "Forwarded"]) {
      expect(() => parseServerEnv({ ...base, TRUSTED_PROXY_HEADER: bad })).toThrow(EnvError);
    }
    expect(() => parseServerEnv({ ...base, TRUSTED_PROXY_HEADER: "a b" })).toThrow(/TRUSTED_PROXY_HEADER/);
  });
});
