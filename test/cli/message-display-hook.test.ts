// The MessageDisplay hook event through the built CLI: `-p` text output shows what the hooks answer
// for each flush of the model's lines (here: a number redacted), while the transcript keeps the
// message as the model wrote it.
import { readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, text, writeScript } from "../loop/helpers.js";
import { runCli } from "./run-cli.js";

/** Every file under `dir`, depth first. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("the MessageDisplay hook event", () => {
  it("replaces the text shown, flush by flush, and leaves the stored message alone", async () => {
    const cwd = realpathSync(tempDir("warden-message-display-"));
    const home = tempDir("warden-message-display-home-");
    const log = join(cwd, "display.log");
    const hook = join(cwd, "redact.mjs");
    writeFileSync(
      hook,
      [
        'import { appendFileSync, readFileSync } from "node:fs";',
        'const input = JSON.parse(readFileSync(0, "utf8"));',
        `appendFileSync(${JSON.stringify(log)}, JSON.stringify(input) + "\\n");`,
        'const displayContent = input.delta.replace(/[0-9]+/g, "[redacted]");',
        'console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: "MessageDisplay", displayContent } }));',
      ].join("\n"),
    );
    const settings = JSON.stringify({
      hooks: { MessageDisplay: [{ hooks: [{ type: "command", command: `node ${hook}` }] }] },
    });
    const script = writeScript(cwd, [{ content: [text("Here it is.\nThe code is 4242.\nDone")] }]);
    const run = await runCli(["-p", "show me", "--model", `replay:${script}`, "--cwd", cwd, "--settings", settings], {
      home,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("The code is [redacted].");
    expect(run.stdout).not.toContain("4242");

    const flushes = readFileSync(log, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(flushes.length).toBeGreaterThan(0);
    expect(flushes.map((f) => f.index)).toEqual(flushes.map((_, i) => i));
    expect(flushes.filter((f) => f.final)).toEqual([flushes.at(-1)]);
    expect(new Set(flushes.map((f) => f.message_id)).size).toBe(1);
    expect(flushes.every((f) => f.hook_event_name === "MessageDisplay" && typeof f.turn_id === "string")).toBe(true);
    expect(flushes.map((f) => f.delta).join("")).toBe("Here it is.\nThe code is 4242.\nDone");

    // Display only: the conversation as stored still has what the model wrote.
    const stored = filesUnder(home)
      .filter((path) => path.endsWith(".jsonl"))
      .map((path) => readFileSync(path, "utf8"))
      .join("\n");
    expect(stored).toContain("The code is 4242.");
  }, 60_000);
});
