// The one place a SessionSpec crosses a process boundary (src/cli/session/spec-wire.ts): every
// field survives the trip, a spec this build cannot read is refused with a message naming what is
// wrong, and `--session-spec` takes the whole session or nothing. A fleet job becomes a spec there
// too (src/cli/session/spec-of-job.ts): every field a job can carry either reaches the spec or is
// named here as the worker's own, so a field added to jobs cannot be silently dropped.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/cli/flags/usage-error.js";
import { type SessionSpec, type SessionSpecInput, sessionSpecSchema } from "../../src/cli/session/spec.js";
import { jobSessionArgs, specOfJob } from "../../src/cli/session/spec-of-job.js";
import { readSessionSpec, sessionSpecOfArgs, writeSessionSpec } from "../../src/cli/session/spec-wire.js";
import { jobSpecSchema, parseJobSpec } from "../../src/fleet/job-spec.js";

/** A value for every field of the spec, none of them its default. */
const EVERY_FIELD: Required<SessionSpecInput> = {
  print: true,
  prompt: "fix the -p flag",
  outputFormat: "stream-json",
  model: "replay:/tmp/script.jsonl",
  maxTurns: 7,
  maxBudgetUsd: 0.25,
  verbose: true,
  appendSystemPrompt: "Be brief.",
  resume: "3f0c8a52-5d1e-4a8e-9c1b-2d7e6f4a9b10",
  pickResume: true,
  continueLatest: false,
  cwd: "/work/project",
  allowedTools: ["Read", "Bash(git log:*)"],
  disallowedTools: ["WebFetch"],
  permissionMode: "acceptEdits",
  addDirs: ["/work/shared"],
  dangerouslySkipPermissions: true,
  allowDangerouslySkipPermissions: true,
  mcpConfig: ['{"mcpServers":{}}'],
  settings: '{"env":{"A":"1"}}',
  trustProject: true,
  jsonSchema: '{"type":"object"}',
  brief: true,
  codeMode: true,
  inputFormat: "stream-json",
  includePartialMessages: true,
  replayUserMessages: true,
  permissionPromptTool: "stdio",
  systemPrompt: "You are a test.",
  settingSources: ["user", "local"],
  pluginDirs: ["/work/plugins/one"],
  strictMcpConfig: true,
  fallbackModel: "replay:/tmp/other.jsonl",
  sessionId: "0b7c5f0e-1d2a-4c3b-8e9f-0a1b2c3d4e5f",
  forkSession: true,
  setup: "maintenance",
  tools: ["Read", "Grep"],
  agents: '{"reviewer":{"description":"reviews","prompt":"review"}}',
  thinking: { type: "enabled", budgetTokens: 2048, display: "omitted" },
  includeHookEvents: true,
  enableFileCheckpointing: true,
  noSessionPersistence: true,
  teammateMode: "process",
  debug: true,
  help: true,
  version: true,
};

describe("a SessionSpec on the wire", () => {
  it("has a value above for every field of the schema", () => {
    expect(Object.keys(EVERY_FIELD).sort()).toEqual(Object.keys(sessionSpecSchema.shape).sort());
  });

  it("round-trips every field", () => {
    const text = writeSessionSpec(EVERY_FIELD);
    expect(readSessionSpec(text)).toEqual(EVERY_FIELD);
  });

  it("fills the defaults a front end leaves out, on the way out", () => {
    const spec = readSessionSpec(writeSessionSpec({ cwd: "/work/project", print: true, prompt: "hi" }));
    expect(spec.outputFormat).toBe("text");
    expect(spec.allowedTools).toEqual([]);
    expect(spec.dangerouslySkipPermissions).toBe(false);
  });

  it("never writes a spec the schema refuses", () => {
    expect(() => writeSessionSpec({ cwd: "relative" })).toThrow("cwd: must be an absolute path");
  });

  it.each([
    ["not JSON", "{cwd:", /--session-spec: not valid JSON/],
    ["not an object", '["/work"]', /--session-spec: must be a JSON object describing the session/],
    ["null", "null", /--session-spec: must be a JSON object/],
    ["an unknown field", '{"cwd":"/p","sandbox":"off"}', /--session-spec: .*sandbox/],
    ["a prototype key", '{"cwd":"/p","__proto__":{"dangerouslySkipPermissions":true}}', /--session-spec: .*__proto__/],
    ["a flag of the wrong kind", '{"cwd":"/p","dangerouslySkipPermissions":"yes"}', /dangerouslySkipPermissions/],
    ["a relative folder", '{"cwd":"../elsewhere"}', /--session-spec: cwd: must be an absolute path/],
    ["no folder", '{"print":true}', /--session-spec: cwd/],
    ["a mode that is none", '{"cwd":"/p","permissionMode":"yolo"}', /permissionMode/],
    ["a combination that cannot work", '{"cwd":"/p","resume":"a","continueLatest":true}', /use either --resume/],
  ])("refuses %s with a clear message", (_what, text, message) => {
    expect(() => readSessionSpec(text)).toThrow(UsageError);
    expect(() => readSessionSpec(text)).toThrow(message);
  });

  it("names where a refused spec came from", () => {
    expect(() => readSessionSpec('{"cwd":"x"}', "initialize: session_spec")).toThrow(
      "initialize: session_spec: cwd: must be an absolute path",
    );
  });
});

describe("--session-spec", () => {
  const stdin = (text: string) => async () => text;

  it("reads the session from stdin or a file", async () => {
    const text = writeSessionSpec({ cwd: "/work/project", print: true, prompt: "hi" });
    expect((await sessionSpecOfArgs(["--session-spec", "-"], stdin(text)))?.prompt).toBe("hi");
    const file = join(mkdtempSync(join(tmpdir(), "spec-wire-")), "spec.json");
    writeFileSync(file, text);
    expect((await sessionSpecOfArgs([`--session-spec=${file}`], stdin("")))?.cwd).toBe("/work/project");
  });

  it("is absent from a command line that does not give it", async () => {
    expect(await sessionSpecOfArgs(["-p", "hi"], stdin(""))).toBeUndefined();
  });

  it("takes nothing beside it", async () => {
    await expect(
      sessionSpecOfArgs(["--session-spec", "-", "--dangerously-skip-permissions"], stdin("{}")),
    ).rejects.toThrow("--session-spec describes the whole session: give no other option or prompt with it");
    await expect(sessionSpecOfArgs(["--session-spec"], stdin("{}"))).rejects.toThrow("--session-spec needs a value");
  });

  it("says which file it cannot read", async () => {
    await expect(sessionSpecOfArgs(["--session-spec", "/no/such/spec.json"], stdin(""))).rejects.toThrow(
      "--session-spec: cannot read /no/such/spec.json",
    );
  });
});

describe("a fleet job's session", () => {
  /** Fields of a job that are the worker's, not the session's: where it runs and what status shows. */
  const WORKER_FIELDS = ["repo", "outputFormat", "agent", "origin"];

  const job = parseJobSpec(
    {
      prompt: "-- a prompt that looks like a flag",
      model: "replay:/tmp/job.jsonl",
      permissionMode: "dontAsk",
      allowedTools: ["Read Grep"],
      disallowedTools: ["Bash(rm:*)"],
      tools: ["Read", "Grep"],
      maxTurns: 3,
      maxBudgetUsd: 0.5,
      jsonSchema: { type: "object", properties: { ok: { type: "boolean" } } },
      appendSystemPrompt: "You are a remote subagent.",
    },
    "test",
  );

  it("carries every session field a job can hold", () => {
    const spec: SessionSpec = specOfJob({ job, cwd: "/work/clone", prompt: job.prompt, resume: "session-1" });
    expect(spec).toMatchObject({
      print: true,
      outputFormat: "stream-json",
      verbose: true,
      prompt: "-- a prompt that looks like a flag",
      cwd: "/work/clone",
      resume: "session-1",
      model: "replay:/tmp/job.jsonl",
      permissionMode: "dontAsk",
      allowedTools: ["Read", "Grep"],
      disallowedTools: ["Bash(rm:*)"],
      tools: ["Read", "Grep"],
      maxTurns: 3,
      maxBudgetUsd: 0.5,
      appendSystemPrompt: "You are a remote subagent.",
    });
    expect(JSON.parse(spec.jsonSchema as string)).toEqual(job.jsonSchema);
    const sessionFields = Object.keys(jobSpecSchema.shape).filter((key) => !WORKER_FIELDS.includes(key));
    for (const key of sessionFields) expect(spec, `job field ${key}`).toHaveProperty(key);
  });

  it("gives the job nothing it did not ask for: no bypass, no trust, no extra folder", () => {
    const spec = specOfJob({ job: parseJobSpec({ prompt: "hi" }, "test"), cwd: "/work/clone", prompt: "hi" });
    expect(spec.dangerouslySkipPermissions).toBe(false);
    expect(spec.allowDangerouslySkipPermissions).toBe(false);
    expect(spec.trustProject).toBe(false);
    expect(spec.addDirs).toEqual([]);
    expect(spec.mcpConfig).toEqual([]);
    expect(spec.settings).toBeUndefined();
  });

  it("is started as `--session-spec -` with the spec on stdin, never on the command line", () => {
    const invocation = jobSessionArgs({ job, cwd: "/work/clone", prompt: job.prompt });
    expect(invocation.args).toEqual(["--session-spec", "-"]);
    expect(readSessionSpec(invocation.input)).toEqual(specOfJob({ job, cwd: "/work/clone", prompt: job.prompt }));
  });
});
