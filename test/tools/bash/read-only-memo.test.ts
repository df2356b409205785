import { describe, expect, it } from "vitest";
import { rememberedReadOnly, rememberReadOnly } from "../../../src/tools/bash/read-only-memo.js";

describe("Bash: memory of read-only answers", () => {
  it("remembers a read-only answer for a short while only", () => {
    const command = `ls memo-test-${Math.random()}`;
    expect(rememberedReadOnly(command, 1_000)).toBe(false);
    expect(rememberReadOnly(command, true, 1_000)).toBe(true);
    expect(rememberedReadOnly(command, 2_500)).toBe(true);
    expect(rememberedReadOnly(command, 3_500)).toBe(false);
  });

  it("never remembers a not-read-only answer (it may be the placeholder before the grammar loads)", () => {
    const command = `rm memo-test-${Math.random()}`;
    expect(rememberReadOnly(command, false, 1_000)).toBe(false);
    expect(rememberedReadOnly(command, 1_001)).toBe(false);
  });
});
