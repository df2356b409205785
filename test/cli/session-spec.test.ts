// SessionSpec, the one description of a session every front end builds: the command line's flags
// make the same spec as the schema's defaults, a spec survives the JSON of a process boundary and
// is read back equal, and the schema refuses what no front end could mean (unknown fields, a
// relative folder, a mode that is none, combinations that cannot work) with the flag-named
// message. A process teammate reads its spec line with the same schema: the built `warden
// teammate` refuses, in its answer to the lead's initialize request, a spec it cannot read before
// it starts anything.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseSessionArgs, UsageError } from "../../src/cli/flags/session-config.js";
import { parseSessionSpec } from "../../src/cli/session/spec.js";
import { BUILT_CLI } from "../helpers/built.js";

describe("SessionSpec", () => {
  it("is what the command line makes, with the schema's defaults for what it leaves out", () => {
    expect(parseSessionSpec({ cwd: "/work/project" })).toEqual(parseSessionArgs([], "/work/project"));
  });

  it("crosses a process boundary as JSON and is read back equal", () => {
    const spec = parseSessionArgs(
      [
        "-p",
        "--model=anthropic:claude-x",
        "--permission-mode",
        "plan",
        "--allowedTools",
        "Read,Bash(git log:*)",
        "--add-dir",
        "sub",
        "--max-turns",
        "4",
        "--max-thinking-tokens=1000",
        "--setting-sources=user,local",
        "--teammate-mode",
        "process",
        "fix it",
      ],
      "/work/project",
    );
    expect(parseSessionSpec(JSON.parse(JSON.stringify(spec)))).toEqual(spec);
  });

  it.each([
    [{ cwd: "/p", colour: "blue" }, /colour/],
    [{ cwd: "relative/folder" }, /cwd: must be an absolute path/],
    [{ cwd: "/p", permissionMode: "yolo" }, /permissionMode/],
    [{ cwd: "/p", maxTurns: 0 }, /maxTurns/],
    [{ cwd: "/p", permissionPromptTool: "mcp__ask" }, /permissionPromptTool/],
    [{ cwd: "/p", forkSession: true }, /--fork-session needs --resume or --continue/],
    [{ cwd: "/p", resume: "a", continueLatest: true }, /use either --resume or --continue/],
    [{ cwd: "/p", inputFormat: "stream-json" }, /--input-format stream-json needs --output-format stream-json/],
    [{ cwd: "/p", agents: "[1]" }, /agents: must be a JSON object of agents/],
  ])("refuses %j", (value, message) => {
    expect(() => parseSessionSpec(value)).toThrow(UsageError);
    expect(() => parseSessionSpec(value)).toThrow(message);
  });

  it("refuses the same combinations on the command line, named by their flags", () => {
    expect(() => parseSessionArgs(["--fork-session"], "/p")).toThrow("--fork-session needs --resume or --continue");
    expect(() =>
      parseSessionArgs(["--session-id", "0b7c5f0e-1d2a-4c3b-8e9f-0a1b2c3d4e5f", "--continue"], "/p"),
    ).toThrow("--session-id with --resume or --continue needs --fork-session");
  });

  it("is read back by the same schema in a process teammate, which refuses one it cannot read", () => {
    const initialize = JSON.stringify({
      type: "control_request",
      request_id: "init-1",
      request: {
        subtype: "initialize",
        session_spec: JSON.stringify({ cwd: "relative/folder" }),
        permission_context: {},
        lead: {},
        teammate: { agentId: "a@team", tools: [] },
      },
    });
    const run = spawnSync(
      process.execPath,
      [BUILT_CLI, "teammate", "--input-format", "stream-json", "--output-format", "stream-json"],
      { input: `${initialize}\n`, encoding: "utf8" },
    );
    expect(run.status).toBe(2);
    const answers = run.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; response: { subtype: string; error?: string } });
    expect(answers).toEqual([
      {
        type: "control_response",
        response: {
          subtype: "error",
          request_id: "init-1",
          error: "initialize: session_spec: cwd: must be an absolute path",
        },
      },
    ]);
  });
});
