// A model switched to mid-session answers under its own name, and Claude Code's `opusplan` is Opus
// in plan mode and Sonnet otherwise. Before, an answer after the SDK's set_model was written to
// stream-json and the transcript as the first model's (so ccusage priced Opus tokens as Sonnet's),
// and `--model opusplan` was refused.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { projectSlug } from "../../src/config/paths.js";
import { BUILT_CLI } from "../helpers/built.js";
import { reply } from "../helpers/scripted-model-server.js";
import { jsonLines } from "./run-cli.js";
import { type CliProject, cliProject, runScriptedCli, scriptedServerOfFile } from "./scripted-cli.js";

const server = scriptedServerOfFile();

const control = (id: string, request: Record<string, unknown>) =>
  JSON.stringify({ type: "control_request", request_id: id, request });
const user = (text: string) =>
  JSON.stringify({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "" });

/**
 * Runs warden with stream-json input: each control request is sent once the previous line's answer
 * came back (so the switch is in place before the prompt), then the prompt, then stdin closes.
 */
function streamSession(p: CliProject, args: string[], controls: Array<Record<string, unknown>>): Promise<string> {
  const child = spawn(
    process.execPath,
    [BUILT_CLI, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", ...args],
    {
      cwd: p.cwd,
      env: {
        ...process.env,
        HOME: p.home,
        WARDEN_HOME: p.home,
        ANTHROPIC_API_KEY: "test",
        ANTHROPIC_BASE_URL: server().anthropicBaseURL,
        WARDEN_MANAGED_SETTINGS: join(p.home, "no-policy.json"),
      },
    },
  );
  let stdout = "";
  let sent = 0;
  const sendNext = () => {
    const next = controls[sent];
    sent += 1;
    if (next) child.stdin.write(`${control(`c${sent}`, next)}\n`);
    else if (sent === controls.length + 1) child.stdin.end(`${user("hi")}\n`);
  };
  createInterface({ input: child.stdout }).on("line", (line) => {
    stdout += `${line}\n`;
    if ((JSON.parse(line) as { type?: string }).type === "control_response") sendNext();
  });
  sendNext();
  return new Promise((resolve) => child.on("close", () => resolve(stdout)));
}

/** One answered prompt: the model it was asked of, the assistant line's and the transcript's. */
async function answered(args: string[], controls?: Array<Record<string, unknown>>) {
  const p = cliProject("model-names");
  server().enqueue(reply().text("answer"));
  const before = server().requests.length;
  const stdout = controls
    ? await streamSession(p, args, controls)
    : (await runScriptedCli(server(), p, ["-p", "hi", ...args])).stdout;
  const asked = (server().requests[before]?.body as { model?: string } | undefined)?.model;
  const assistant = jsonLines(stdout).find((line) => line.type === "assistant") as {
    message: { model: string };
    session_id: string;
  };
  const path = join(p.home, "projects", projectSlug(p.cwd), `${assistant.session_id}.jsonl`);
  const transcript = readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; message?: { model?: string } })
    .filter((line) => line.type === "assistant")
    .map((line) => line.message?.model);
  return { asked, streamed: assistant.message.model, transcript };
}

describe("the model that answered", () => {
  it("is named after the SDK's set_model, in stream-json and in the transcript", async () => {
    const { asked, streamed, transcript } = await answered(
      ["--model", "sonnet"],
      [{ subtype: "set_model", model: "opus" }],
    );
    expect([asked, streamed, ...transcript]).toEqual(["claude-opus-4-6", "claude-opus-4-6", "claude-opus-4-6"]);
  });

  it("opusplan is Sonnet outside plan mode and Opus in it, however the mode is set", async () => {
    expect((await answered(["--model", "opusplan"])).streamed).toBe("claude-sonnet-4-6");
    const planned = await answered(["--model", "opusplan", "--permission-mode", "plan"]);
    expect([planned.asked, planned.streamed]).toEqual(["claude-opus-4-6", "claude-opus-4-6"]);
    const switched = await answered(["--model", "opusplan"], [{ subtype: "set_permission_mode", mode: "plan" }]);
    expect([switched.asked, switched.streamed]).toEqual(["claude-opus-4-6", "claude-opus-4-6"]);
  });
});
