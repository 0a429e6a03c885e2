import { describe, expect, it } from "vitest";
import { checkEndpointResolves, checkEndpointUrl } from "./endpoint-policy";

describe("model endpoint policy", () => {
  it("allows ordinary and private-network GPU servers", () => {
    for (const u of [
      "https://api.example.org/v1",
      "http://10.1.2.3:8000/v1",
      "http://gpu-node-7:30000/v1",
      "http://127.0.0.1:8000/v1",
    ]) {
      expect(checkEndpointUrl(u, []).toString()).toContain(new URL(u).host);
    }
  });

  it("refuses metadata, link-local and unspecified addresses unless allowlisted", () => {
    expect(() => checkEndpointUrl("http://169.254.169.254/", [])).toThrow(/link-local/);
    expect(() => checkEndpointUrl("http://[::ffff:169.254.169.254]/", [])).toThrow(/link-local/);
    expect(() => checkEndpointUrl("http://100.100.100.200/", [])).toThrow(/metadata/);
    expect(() => checkEndpointUrl("http://0.0.0.0:80/", [])).toThrow(/unspecified/);
    expect(() => checkEndpointUrl("http://metadata.google.internal/", [])).toThrow(/metadata host/);
    expect(checkEndpointUrl("http://169.254.10.10:8000/v1", ["169.254.10.10"]).hostname).toBe("169.254.10.10");
    expect(checkEndpointUrl("http://metadata.lab.internal/", ["*.lab.internal"]).hostname).toBe(
      "metadata.lab.internal",
    );
  });

  it("re-checks after DNS resolution", async () => {
    await expect(checkEndpointResolves(new URL("http://localhost:1/"), [])).resolves.toBeUndefined();
    await expect(checkEndpointResolves(new URL("http://169.254.1.1/"), [])).rejects.toThrow(/link-local/);
  });
});
