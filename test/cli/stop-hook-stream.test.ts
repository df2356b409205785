// A Stop hook that sends the model back to work, seen by a `-p --output-format stream-json` reader:
// its feedback is a meta user line between the answer it refused and the next one, as Claude Code
// streams it, so a script can tell why the model went on.
import { chmodSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, text, writeScript } from "../loop/helpers.js";
import { jsonLines, runCli } from "./run-cli.js";

describe("Stop hook feedback in stream-json", () => {
  it("streams the hook's reason as a meta user message before the model's next answer", async () => {
    const cwd = realpathSync(tempDir("warden-stop-stream-"));
    const home = tempDir("warden-stop-stream-home-");
    const hook = join(cwd, "stop.sh");
    // Blocks the first stop only: a second one comes with stop_hook_active set.
    writeFileSync(
      hook,
      `#!/usr/bin/env bash\ngrep -q '"stop_hook_active":true' && exit 0\necho 'Please also run the tests' >&2\nexit 2\n`,
    );
    chmodSync(hook, 0o755);
    const settingsFile = join(cwd, "stop-settings.json");
    writeFileSync(settingsFile, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: hook }] }] } }));
    const script = writeScript(cwd, [{ content: [text("All done.")] }, { content: [text("Ran the tests too.")] }]);
    const run = await runCli(
      [
        "-p",
        "fix it",
        "--model",
        `replay:${script}`,
        "--cwd",
        cwd,
        "--settings",
        settingsFile,
        "--output-format",
        "stream-json",
      ],
      { home },
    );
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    const conversation = lines.filter(
      (line) => (line.type === "assistant" || line.type === "user") && line.isMeta !== true,
    );
    const feedback = lines.findIndex(
      (line) => line.type === "user" && JSON.stringify(line.message).includes("Please also run the tests"),
    );
    expect(feedback).toBeGreaterThan(-1);
    expect(lines[feedback]).toMatchObject({
      isMeta: true,
      parent_tool_use_id: null,
      message: {
        role: "user",
        content: [{ type: "text", text: "A Stop hook asked you to continue: Please also run the tests" }],
      },
    });
    const answers = lines.flatMap((line, index) => (line.type === "assistant" ? [index] : []));
    expect(answers).toHaveLength(2);
    expect(answers[0]).toBeLessThan(feedback);
    expect(feedback).toBeLessThan(answers[1] ?? -1);
    expect(conversation.map((line) => line.type)).toEqual(["assistant", "assistant"]);
    expect(lines.at(-1)).toMatchObject({ type: "result", subtype: "success", result: "Ran the tests too." });
  }, 60_000);
});
