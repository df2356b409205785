// A session that ends while a language server is still starting (a server that never answers
// initialize): the manager stops it then, instead of waiting out its startup timeout, so an editor
// closing its ACP connection or a finished `-p` run does not linger for a minute.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LspManager } from "../../../src/lsp/manager.js";

const dir = mkdtempSync(join(tmpdir(), "warden-lsp-close-starting-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("closing the language servers while one starts", () => {
  it("stops the starting server at once and rejects its callers with the reason", async () => {
    const file = join(dir, "main.zz");
    writeFileSync(file, "x\n");
    // Its script's path (in this test's folder) is in its arguments: how the process is found afterwards.
    const marker = join(dir, "never-answers.sh");
    writeFileSync(marker, "sleep 1000\n");
    const manager = new LspManager(
      [
        {
          name: "silent",
          command: "sh",
          args: [marker],
          extensions: [".zz"],
          languageIds: {},
          env: {},
          // Longer than this test's own timeout: only an early stop lets it pass.
          startupTimeout: 120_000,
        },
      ],
      dir,
      () => undefined,
    );
    const starting = manager.clientFor(file);
    const outcome = starting.then(
      () => "started",
      (error: Error) => error.message,
    );
    // The process is there before the session ends.
    while (!execFileSync("ps", ["-eo", "args"]).toString().includes(marker)) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await manager.close();
    expect(await outcome).toMatch(/the session ended while it was starting/);
    expect(execFileSync("ps", ["-eo", "args"]).toString()).not.toContain(marker);
  }, 30_000);
});
