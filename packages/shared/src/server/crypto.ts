import crypto from "node:crypto";
import { serverEnv } from "./env";

/** API token secrets: 32 random bytes; only their SHA-256 is stored (a fast hash is right here:
 * the secret has 256 bits of entropy, unlike a password). */
export function newTokenSecret(): { secret: string; hash: string; prefix: string } {
  const secret = `pvt_${crypto.randomBytes(32).toString("base64url")}`;
  return { secret, hash: hashTokenSecret(secret), prefix: secret.slice(0, 10) };
}

export function hashTokenSecret(secret: string): string {
  return crypto.createHash("sha256").update(secret).digest("hex");
}

function encryptionKey(): Buffer {
  // Derived from AUTH_SECRET so a fresh install needs one secret, not two.
  return Buffer.from(crypto.hkdfSync("sha256", serverEnv().AUTH_SECRET, "paravt", "model-secrets", 32));
}

/** AES-256-GCM; output `iv.tag.ciphertext` in base64url. Used for model endpoint API keys. */
export function encryptSecret(plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", encryptionKey(), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString("base64url")).join(".");
}

export function decryptSecret(sealed: string): string {
  const [iv, tag, data] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
  if (!iv || !tag || !data) throw new Error("malformed encrypted secret");
  const decipher = crypto.createDecipheriv("aes-256-gcm", encryptionKey(), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
}
