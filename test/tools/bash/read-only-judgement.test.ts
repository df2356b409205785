// The Bash tool's read-only judgement is made per call and per session: nothing it learns is held
// in the module, so two sessions in one process (the SDK's in-process sessions, a fleet worker)
// judge the same command text each against its own directory, however their calls interleave.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { isCallConcurrencySafe } from "../../../src/orchestration/partition.js";
import { resolveToolCall } from "../../../src/orchestration/resolve-call.js";
import { CallMemo } from "../../../src/tool/call-memo.js";
import { sessionWorkingDirectory } from "../../../src/tool/working-directory.js";
import { BashTool } from "../../../src/tools/bash/tool.js";
import { call, makeContext } from "../../orchestration/fixtures.js";

let projectA: string;
let projectB: string;

beforeAll(async () => {
  // The executor awaits this before judging; so does the test, to judge exactly.
  await BashTool.whenReady?.();
  const root = await mkdtemp(join(tmpdir(), "warden-readonly-"));
  projectA = join(root, "a");
  projectB = join(root, "b");
  await mkdir(projectA);
  await mkdir(projectB);
  await writeFile(join(projectA, "notes.txt"), "a\n");
});

describe("Bash read-only judgement: per call, per session", () => {
  it("two sessions in one process judge the same command each in its own directory, interleaved", () => {
    const sessionA = makeContext([BashTool], projectA);
    const sessionB = makeContext([BashTool], projectB);
    // Reading a file of A's project is read-only for A; for B it reads outside its project.
    const command = `cat ${join(projectA, "notes.txt")}`;
    const judge = (session: typeof sessionA) =>
      isCallConcurrencySafe(
        resolveToolCall(call("Bash", { command }), session.options.tools),
        sessionWorkingDirectory(session),
      );
    expect([judge(sessionA), judge(sessionB), judge(sessionA), judge(sessionB)]).toEqual([true, false, true, false]);
  });

  it("a call's memo keeps the answer for its directory only", () => {
    const memo = new CallMemo();
    const input = { command: `cat ${join(projectA, "notes.txt")}` };
    expect(BashTool.isReadOnly(input, { cwd: projectA, memo })).toBe(true);
    // The same memo asked for another directory judges afresh instead of reusing A's answer.
    expect(BashTool.isReadOnly(input, { cwd: projectB, memo })).toBe(false);
    expect(BashTool.isReadOnly(input, { cwd: projectA, memo })).toBe(true);
  });

  it("a writing command is judged writing whatever was judged before it", () => {
    const memo = new CallMemo();
    expect(BashTool.isConcurrencySafe({ command: "ls" }, { cwd: projectA, memo })).toBe(true);
    expect(BashTool.isConcurrencySafe({ command: "rm notes.txt" }, { cwd: projectA, memo })).toBe(false);
    // A `cd` reads nothing it may not, yet moves the shell: never beside other calls.
    expect(BashTool.isConcurrencySafe({ command: "cd .." }, { cwd: projectA, memo })).toBe(false);
  });
});
