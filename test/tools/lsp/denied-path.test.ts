// The LSP tool on a path under a folder a Read deny rule covers: refused for the rule before the
// disk is looked at (no language server is needed for that), so the answer does not tell whether
// the file exists, as the file tools' answers do not (test/tools/file-shared/denied-path-names.test.ts).
import { mkdir } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LspService } from "../../../src/lsp/service.js";
import { toolResultText } from "../../../src/messages/types.js";
import { runToolUse } from "../../../src/orchestration/run-tool-use.js";
import { createLspTool } from "../../../src/tools/lsp/tool.js";
import { allowUnlessDenied, makeProject, type TestProject } from "../helpers.js";

let project: TestProject;
beforeEach(async () => {
  project = await makeProject();
  await mkdir(path.join(project.dir, "secret"), { recursive: true });
  const deny = project.context.getAppState().toolPermissionContext.rules.deny;
  deny.push({ source: "session", behavior: "deny", value: { toolName: "Read", ruleContent: "./secret/**" } });
});
afterEach(async () => {
  await project.cleanup();
});

describe("the LSP tool on a path under a denied folder", () => {
  it("is refused for the rule, saying nothing of whether the file exists", async () => {
    // No server is set up: the refusal comes before any server is looked for.
    const tool = createLspTool(new LspService([], project.dir));
    const context = {
      ...project.context,
      options: { ...project.context.options, tools: [...project.context.options.tools, tool] },
    };
    const filePath = path.join(project.dir, "secret", "api-key.ts");
    const outcome = await runToolUse(
      {
        type: "tool_use",
        id: "toolu_lsp_denied",
        name: tool.name,
        input: { operation: "hover", filePath, line: 1, character: 1 },
      },
      context,
      allowUnlessDenied,
      undefined,
    );
    expect(outcome.result.is_error).toBe(true);
    expect(outcome.denial?.reason).toMatchObject({ type: "rule", rule: { value: { ruleContent: "./secret/**" } } });
    expect(toolResultText(outcome.result.content)).not.toMatch(/does not exist/i);
  });
});
