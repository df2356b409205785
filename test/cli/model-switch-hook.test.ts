// PreModelSwitch and PostModelSwitch through the built CLI's control protocol (the Agent SDK's
// set_model): a hook that denies a switch makes the request fail with its reason; a switch it
// allows succeeds and both events are told the models and that the SDK asked.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, text, writeScript } from "../loop/helpers.js";
import { jsonLines, runCli } from "./run-cli.js";

describe("stream-json set_model: PreModelSwitch and PostModelSwitch", () => {
  it("a denied switch fails with the hook's reason; an allowed one runs both events", async () => {
    const home = tempDir("warden-model-switch-home-");
    const cwd = tempDir("warden-model-switch-project-");
    const log = join(cwd, "switch.log");
    const deny = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreModelSwitch",
        permissionDecision: "deny",
        permissionDecisionReason: "opus is too dear here",
      },
    });
    const hook = `input=$(cat); printf '%s\\n' "$input" >> '${log}'; case "$input" in *'"to_model":"claude-opus'*) printf '%s\\n' '${deny}';; esac`;
    const command = { hooks: [{ type: "command", command: hook }] };
    const settings = join(cwd, "settings.json");
    writeFileSync(settings, JSON.stringify({ hooks: { PreModelSwitch: [command], PostModelSwitch: [command] } }));
    const script = writeScript(cwd, [{ content: [text("unused")] }]);
    const request = (id: string, model: string) =>
      JSON.stringify({ type: "control_request", request_id: id, request: { subtype: "set_model", model } });
    const run = await runCli(
      [
        "-p",
        "--input-format",
        "stream-json",
        "--output-format",
        "stream-json",
        "--verbose",
        "--model",
        `replay:${script}`,
        "--settings",
        settings,
      ],
      {
        home,
        processCwd: cwd,
        input: `${request("r1", "anthropic:claude-opus-4-5")}\n${request("r2", "anthropic:claude-haiku-4-5")}\n`,
      },
    );
    const responses = jsonLines(run.stdout).filter((line) => line.type === "control_response");
    expect(responses.map((line) => line.response)).toEqual([
      {
        subtype: "error",
        request_id: "r1",
        error: "the model was not switched to claude-opus-4-5: opus is too dear here",
      },
      { subtype: "success", request_id: "r2", response: {} },
    ]);
    const told = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(told.map((input) => [input.hook_event_name, input.to_model, input.source])).toEqual([
      ["PreModelSwitch", "claude-opus-4-5", "sdk"],
      ["PreModelSwitch", "claude-haiku-4-5", "sdk"],
      ["PostModelSwitch", "claude-haiku-4-5", "sdk"],
    ]);
  });
});
