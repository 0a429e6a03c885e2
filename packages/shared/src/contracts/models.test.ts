import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ENDPOINT_LIMIT_DEFAULTS, modelConfigInput, storedEndpointLimits } from "./models";

const endpoint = { kind: "OPENAI_COMPATIBLE", baseUrl: "http://gpu-node:8000/v1", servedModel: "m" } as const;

function reasons(input: unknown): string {
  const r = modelConfigInput.safeParse(input);
  return r.success ? "" : z.prettifyError(r.error);
}

describe("modelConfigInput: endpoint timeouts and retries", () => {
  it("defaults to 120 s first byte, 600 s total, 2 retries", () => {
    expect(modelConfigInput.parse(endpoint)).toEqual({
      ...endpoint,
      firstByteTimeoutS: 120,
      totalTimeoutS: 600,
      retries: 2,
    });
    expect(ENDPOINT_LIMIT_DEFAULTS).toEqual({ firstByteTimeoutS: 120, totalTimeoutS: 600, retries: 2 });
  });

  it("keeps what is given", () => {
    const v = modelConfigInput.parse({ ...endpoint, firstByteTimeoutS: 30, totalTimeoutS: 90, retries: 0 });
    expect(v).toMatchObject({ firstByteTimeoutS: 30, totalTimeoutS: 90, retries: 0 });
  });

  it("refuses bounds out of range, fractions and a first byte past the total, naming the field", () => {
    expect(reasons({ ...endpoint, firstByteTimeoutS: 0 })).toMatch(
      /first-byte timeout is at least 1 s[\s\S]*firstByteTimeoutS/,
    );
    expect(reasons({ ...endpoint, firstByteTimeoutS: 301 })).toMatch(/at most 300 s/);
    expect(reasons({ ...endpoint, totalTimeoutS: 3601 })).toMatch(/total timeout is at most 3600 s/);
    expect(reasons({ ...endpoint, totalTimeoutS: 1.5 })).toMatch(/whole number of seconds/);
    expect(reasons({ ...endpoint, retries: 11 })).toMatch(/At most 10 retries/);
    expect(reasons({ ...endpoint, retries: -1 })).toMatch(/cannot be negative/);
    expect(reasons({ ...endpoint, firstByteTimeoutS: 200, totalTimeoutS: 100 })).toMatch(
      /first-byte timeout cannot exceed the total timeout[\s\S]*firstByteTimeoutS/,
    );
  });

  it("a config stored before the settings existed reads as the defaults", () => {
    expect(storedEndpointLimits.parse({ baseUrl: "http://x/v1", servedModel: "m", probe: {} })).toEqual(
      ENDPOINT_LIMIT_DEFAULTS,
    );
  });
});
