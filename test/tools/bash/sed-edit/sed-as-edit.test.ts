// An in-place sed on a file the model may edit is decided as an edit: the real permission step of
// the Bash tool shows the diff, acceptEdits and Edit rules allow it, deny rules and protected paths
// keep their say, and the call writes exactly the approved text. What cannot be simulated goes the
// ordinary Bash way.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PermissionMode, PermissionResult } from "../../../../src/tool/permission-types.js";
import { BashTool } from "../../../../src/tools/bash/tool.js";
import { textOfResult } from "../../../orchestration/fixtures.js";
import { createSession, type Session } from "../harness.js";

let session: Session;
let file: string;
const ORIGINAL = "port = 3000\nhost = localhost\nport_backup = 3000\n";

beforeEach(() => {
  session = createSession();
  file = join(session.project, "config.ini");
  writeFileSync(file, ORIGINAL);
});
afterEach(async () => {
  await session.cleanup();
});

function setMode(mode: PermissionMode): void {
  session.context.setAppState((s) => ({ ...s, toolPermissionContext: { ...s.toolPermissionContext, mode } }));
}

async function permissionOf(command: string): Promise<PermissionResult> {
  const input = BashTool.inputSchema.parse({ command });
  return (await BashTool.checkPermissions(input, session.context)) as PermissionResult;
}

async function callWith(permission: PermissionResult) {
  if (permission.behavior !== "allow" && permission.behavior !== "ask") throw new Error(permission.behavior);
  const input = permission.updatedInput as Parameters<typeof BashTool.call>[0];
  const output = await BashTool.call(input, session.context, async () => ({ behavior: "allow" }), undefined);
  return BashTool.mapToolResult(output.data, "toolu_sed");
}

function realSed(script: string, text: string): string {
  return execFileSync("sed", ["-e", script], { input: text, encoding: "utf8" });
}

describe("sed -i judged and applied as an edit", () => {
  it("asks with the diff of the lines it changes, and writes exactly what real sed would", async () => {
    const ask = await permissionOf("sed -i 's/3000/8080/' config.ini");
    expect(ask.behavior).toBe("ask");
    expect(ask.behavior === "ask" && ask.editPreview).toEqual({
      filePath: file,
      oldText: "port = 3000\nhost = localhost\nport_backup = 3000",
      newText: "port = 8080\nhost = localhost\nport_backup = 8080",
      firstLine: 1,
    });
    const result = await callWith(ask);
    expect(readFileSync(file, "utf8")).toBe(realSed("s/3000/8080/", ORIGINAL));
    expect(textOfResult(result)).toContain(`The substitution was applied to ${file} as an edit`);
    expect(textOfResult(result)).toContain("+port = 8080");
  });

  it("acceptEdits allows it without asking, as it allows Edit", async () => {
    setMode("acceptEdits");
    const allow = await permissionOf("sed -i -e 's/localhost/127.0.0.1/g' config.ini");
    expect(allow.behavior).toBe("allow");
    await callWith(allow);
    expect(readFileSync(file, "utf8")).toBe(realSed("s/localhost/127.0.0.1/g", ORIGINAL));
  });

  it("an Edit allow rule for the file allows it", async () => {
    session.context.getAppState().toolPermissionContext.rules.allow.push({
      source: "session",
      behavior: "allow",
      value: { toolName: "Edit", ruleContent: "./config.ini" },
    });
    expect((await permissionOf("sed -i 's/port/PORT/' config.ini")).behavior).toBe("allow");
  });

  it("an Edit deny rule on the file denies it, even in acceptEdits", async () => {
    setMode("acceptEdits");
    session.context.getAppState().toolPermissionContext.rules.deny.push({
      source: "session",
      behavior: "deny",
      value: { toolName: "Edit", ruleContent: "./config.ini" },
    });
    expect((await permissionOf("sed -i 's/port/PORT/' config.ini")).behavior).toBe("deny");
  });

  it("a Bash deny rule on sed still denies it", async () => {
    setMode("acceptEdits");
    session.context.getAppState().toolPermissionContext.rules.deny.push({
      source: "session",
      behavior: "deny",
      value: { toolName: "Bash", ruleContent: "sed:*" },
    });
    expect((await permissionOf("sed -i 's/port/PORT/' config.ini")).behavior).toBe("deny");
  });

  it("a protected path asks even in acceptEdits, with the diff", async () => {
    setMode("acceptEdits");
    mkdirSync(join(session.project, ".git"));
    writeFileSync(join(session.project, ".git", "config"), "[core]\n\tbare = false\n");
    const ask = await permissionOf("sed -i 's/false/true/' .git/config");
    expect(ask.behavior).toBe("ask");
    expect(ask.behavior === "ask" && ask.decisionReason?.type).toBe("safetyCheck");
    expect(ask.behavior === "ask" && ask.editPreview?.newText).toBe("\tbare = true");
  });

  it("writes nothing when the file changed after the edit was shown", async () => {
    setMode("acceptEdits");
    const allow = await permissionOf("sed -i 's/3000/8080/' config.ini");
    writeFileSync(file, "port = 3000\nchanged meanwhile\n");
    await expect(callWith(allow)).rejects.toThrow(/changed after the sed edit was computed/);
    expect(readFileSync(file, "utf8")).toBe("port = 3000\nchanged meanwhile\n");
  });

  it("leaves what it cannot prove to ordinary Bash approval", async () => {
    for (const command of [
      "sed -i.bak 's/3000/8080/' config.ini", // a backup file as well
      "sed -i 's/\\(3000\\)/\\1 0/' config.ini", // groups
      "sed -i 's/3000/8080/' config.ini other.ini", // several files
      "sed -i 's/3000/8080/' config.ini && echo done", // more than the sed
      "sed -n -i 's/3000/8080/p' config.ini", // other options
      "sed 's/3000/8080/' config.ini", // not in place
    ]) {
      const result = await permissionOf(command);
      expect(result.behavior === "ask" && result.editPreview, command).toBeFalsy();
      expect(
        "updatedInput" in result && result.updatedInput && "_simulatedSedEdit" in result.updatedInput,
        command,
      ).toBeFalsy();
    }
  });

  it("the model cannot send a simulated edit itself: the input schema refuses the field", () => {
    const parsed = BashTool.inputSchema.safeParse({
      command: "true",
      _simulatedSedEdit: { filePath: file, beforeHash: "x", after: "pwned" },
    });
    expect(parsed.success).toBe(false);
  });
});
