// The bearer token of `warden mcp serve --port`: made per server, compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { closeSync, constants, fchmodSync, openSync, writeSync } from "node:fs";

/** 256 random bits, URL-safe: nothing to guess, nothing to escape in a header. */
export function newServerToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Whether an Authorization header carries `token` as a Bearer credential. Both sides are hashed
 * first so the comparison takes the same time whatever the length or the first wrong byte.
 */
export function bearerTokenMatches(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match?.[1]) return false;
  const given = createHash("sha256").update(match[1]).digest();
  const expected = createHash("sha256").update(token).digest();
  return timingSafeEqual(given, expected);
}

/**
 * Writes the token to `path` readable by its owner only (0600, also when the file existed with a
 * wider mode), refusing to follow a symbolic link planted at that path.
 */
export function writeTokenFile(path: string, token: string): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
}
