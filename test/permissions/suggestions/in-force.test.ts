// An ask's advice names only what would allow the call: never a rule or mode already in force (it
// did not allow the call, so adding it again would not either), and the reason is said once. The
// case from issue 33: `echo x >> file` with `Bash(echo x:*)` allowed, refused headless with the
// advice to add `Bash(echo x:*)` and its reason printed twice.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCanUseTool, createHeadlessAskHandler } from "../../../src/permissions/engine/index.js";
import { rulesFromStrings } from "../../../src/permissions/rules/index.js";
import type { PermissionMode, PermissionResult, ToolPermissionContext } from "../../../src/tool/permission-types.js";
import { BashTool } from "../../../src/tools/bash/tool.js";
import { permissionsInProcess } from "../check-in-process.js";
import { isolateEnvironment, scriptedTool, tempDir, toolContext } from "../helpers.js";

isolateEnvironment();

function permissionContext(cwd: string, allow: string[], mode: PermissionMode = "default"): ToolPermissionContext {
  return {
    mode,
    workingDirectories: [cwd],
    rules: rulesFromStrings({ allow }, "session", cwd, "test").rules,
    isBypassPermissionsModeAvailable: false,
  };
}

async function headlessRefusal(
  tool: Parameters<ReturnType<typeof createCanUseTool>>[0],
  context: ToolPermissionContext,
  input: Record<string, unknown>,
) {
  const cwd = context.workingDirectories[0] as string;
  const canUseTool = createCanUseTool({ askHandler: createHeadlessAskHandler() });
  const decision = await canUseTool(tool, input, toolContext(cwd, context, [tool]), undefined, "toolu_1");
  if (decision.behavior !== "deny") throw new Error(`expected a refusal, got ${decision.behavior}`);
  return decision.message;
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe("advice on an ask", () => {
  it("a redirection whose command is allowed already: acceptEdits is advised, not the rule in force, and the reason said once", async () => {
    const cwd = tempDir();
    const message = await headlessRefusal(BashTool, permissionContext(cwd, ["Bash(echo x:*)"]), {
      command: "echo x >> file",
    });
    expect(message).not.toContain("Bash(echo x:*)");
    expect(message).toContain("--permission-mode acceptEdits");
    expect(occurrences(message, "writes to file through a redirection")).toBe(1);

    const checked = await permissionsInProcess(
      [
        "check",
        "Bash",
        JSON.stringify({ command: "echo x >> file" }),
        "--allowedTools",
        "Bash(echo x:*)",
        "--cwd",
        cwd,
      ],
      { home: tempDir("warden-in-force-home-"), cwd },
    );
    const result = JSON.parse(checked.stdout) as { behavior: string; suggestedRules: string[]; suggestions: object[] };
    expect(result.behavior).toBe("ask");
    expect(result.suggestedRules).toEqual([]);
    expect(result.suggestions).toEqual([{ type: "setMode", mode: "acceptEdits", destination: "session" }]);
  });

  it("any tool: a suggested allow rule already in force is left out, and a mode the session is in", async () => {
    const cwd = tempDir();
    const asks: PermissionResult = {
      behavior: "passthrough",
      message: "T wants to do it.",
      suggestions: [
        {
          type: "addRules",
          behavior: "allow",
          rules: [{ toolName: "T", ruleContent: "thing" }],
          destination: "session",
        },
        { type: "setMode", mode: "acceptEdits", destination: "session" },
      ],
    };
    const message = await headlessRefusal(
      scriptedTool("T", asks),
      permissionContext(cwd, ["T(thing)"], "acceptEdits"),
      {},
    );
    expect(message).not.toContain("T(thing)");
    expect(message).not.toContain("acceptEdits");
    expect(occurrences(message, "T wants to do it.")).toBe(1);
  });

  it("a rule not yet in force is still advised", async () => {
    const cwd = tempDir();
    const message = await headlessRefusal(BashTool, permissionContext(cwd, []), {
      command: `git push origin main > ${join(cwd, "log")}`,
    });
    expect(message).toContain("Bash(git push:*)");
  });
});
