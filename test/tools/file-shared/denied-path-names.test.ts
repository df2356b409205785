// A path under a folder the permission rules deny: the file tools leave it to the permission check,
// which refuses it for the rule (a recorded denial) before anything looks at the disk, so the
// refusal neither says whether the file exists nor offers the names of the denied folder's files
// ("Did you mean .../api-key-prod.txt?").
import { mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toolResultText } from "../../../src/messages/types.js";
import { runToolUse } from "../../../src/orchestration/run-tool-use.js";
import type { AnyTool } from "../../../src/tool/types.js";
import { GlobTool } from "../../../src/tools/glob/tool.js";
import { GrepTool } from "../../../src/tools/grep/tool.js";
import { NotebookEditTool } from "../../../src/tools/notebook-edit/tool.js";
import { ReadTool } from "../../../src/tools/read/tool.js";
import { allowUnlessDenied, makeProject, type TestProject, validationMessage } from "../helpers.js";

let project: TestProject;
beforeEach(async () => {
  project = await makeProject();
  await mkdir(path.join(project.dir, "secret", "keys"), { recursive: true });
  await writeFile(path.join(project.dir, "secret", "api-key-prod.txt"), "k\n");
  await writeFile(path.join(project.dir, "secret", "report-prod.ipynb"), "{}\n");
  const deny = project.context.getAppState().toolPermissionContext.rules.deny;
  deny.push({ source: "session", behavior: "deny", value: { toolName: "Read", ruleContent: "./secret/**" } });
  deny.push({ source: "session", behavior: "deny", value: { toolName: "Edit", ruleContent: "./secret/**" } });
});
afterEach(async () => {
  await project.cleanup();
});

const cases: Array<[string, AnyTool, (dir: string) => Record<string, unknown>]> = [
  ["Read", ReadTool, (dir) => ({ file_path: path.join(dir, "secret", "api-key.txt") })],
  ["Glob", GlobTool, (dir) => ({ pattern: "*", path: path.join(dir, "secret", "api-key") })],
  ["Grep", GrepTool, (dir) => ({ pattern: "k", path: path.join(dir, "secret", "api-key.txt") })],
  [
    "NotebookEdit",
    NotebookEditTool,
    (dir) => ({ notebook_path: path.join(dir, "secret", "report.ipynb"), new_source: "x", cell_id: "a" }),
  ],
];

describe("file tools on a path under a denied folder", () => {
  it.each(cases)("%s is refused for the rule, naming no file of the folder", async (_name, tool, input) => {
    // The session offers the tool (LSP is offered only where language servers are set up).
    const context = {
      ...project.context,
      options: { ...project.context.options, tools: [...project.context.options.tools, tool] },
    };
    const outcome = await runToolUse(
      { type: "tool_use", id: `toolu_denied_${tool.name}`, name: tool.name, input: input(project.dir) },
      context,
      allowUnlessDenied,
      undefined,
    );
    const message = toolResultText(outcome.result.content);
    expect(outcome.result.is_error).toBe(true);
    expect(outcome.denial?.reason).toMatchObject({ type: "rule", rule: { value: { ruleContent: "./secret/**" } } });
    expect(message).not.toContain("-prod");
    expect(message).not.toMatch(/does not exist/i);
  });

  it("Read still says a missing file outside the denied folders does not exist", async () => {
    await writeFile(path.join(project.dir, "notes-old.md"), "n\n");
    const message = await validationMessage(
      ReadTool,
      { file_path: path.join(project.dir, "notes.md") },
      project.context,
    );
    expect(message).toContain("File does not exist");
  });
});
