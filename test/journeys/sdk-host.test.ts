// Journey: a program built on the Agent SDK (@anthropic-ai/claude-agent-sdk, pointed at the built
// warden) has the failing test fixed, then asks a follow-up in the same streaming session. Its
// canUseTool approves each question by applying the suggestions it is given (as Claude Code's own
// UI does with "don't ask again"), and a PostToolUse hook watches the edits. The model is scripted.
// What is checked: what the host was asked and told, the results, and the repository.
import type { HookCallback, PermissionResult, PermissionUpdate, SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { writeScript } from "../loop/helpers.js";
import { Prompts, results, sdkOptions, workspace } from "../sdk/sdk-harness.js";
import { bugRepo, changedLines, TEST_COMMAND, testsPass } from "./helpers/bug-repo.js";
import { call, exploreTurns, fixEdit, runTests, text, turn } from "./helpers/capable-model.js";

describe("journey: an Agent SDK host fixes the bug", () => {
  it("streams two prompts, applies canUseTool's suggestions so the edits and the tests ask once, and hears its hooks", async () => {
    const ws = { ...workspace(), cwd: bugRepo() };
    const script = writeScript(ws.home, [
      ...exploreTurns(),
      turn([runTests("t1")]),
      turn([fixEdit("t2")]),
      turn([
        call("t3", "Edit", {
          file_path: "{{cwd}}/src/sum.js",
          old_string: "export function sum",
          new_string: "/** a plus b. */\nexport function sum",
        }),
      ]),
      turn([runTests("t4")]),
      turn([text("Fixed: `sum` now adds, and the test passes.")]),
      turn([text("The test covers 2 + 3; negative numbers are not tested yet.")]),
    ]);
    const asked: Array<{ tool: string; input: Record<string, unknown>; suggestions: PermissionUpdate[] }> = [];
    const edits: string[] = [];
    const watchEdits: HookCallback = async (input) => {
      if (input.hook_event_name === "PostToolUse")
        edits.push(String((input.tool_input as { file_path?: string }).file_path));
      return {};
    };
    const prompts = new Prompts();
    const q = query({
      prompt: prompts,
      options: sdkOptions(ws, {
        model: `replay:${script}`,
        canUseTool: async (tool, input, { suggestions }): Promise<PermissionResult> => {
          asked.push({ tool, input, suggestions: suggestions ?? [] });
          return { behavior: "allow", updatedInput: input, updatedPermissions: suggestions ?? [] };
        },
        hooks: { PostToolUse: [{ matcher: "Edit", hooks: [watchEdits] }] },
      }),
    });
    prompts.send("The sum test fails; fix it.");
    const messages: SDKMessage[] = [];
    for await (const message of q) {
      messages.push(message);
      if (message.type !== "result") continue;
      // The follow-up goes once the first prompt has its result (a person reading, then typing).
      if (results(messages).length === 1) prompts.send("Are negative numbers tested?");
      else prompts.end();
    }

    const ended = results(messages);
    expect(ended.map((r) => r.subtype)).toEqual(["success", "success"]);
    expect(JSON.stringify(ended[0])).toContain("Fixed: `sum` now adds, and the test passes.");
    expect(JSON.stringify(ended[1])).toContain("The test covers 2 + 3; negative numbers are not tested yet.");
    expect(new Set(ended.map((r) => r.session_id)).size).toBe(1);

    // Asked once about the test command: node runs any code, so no prefix is offered, but its exact
    // command is, and once applied the second run goes through.
    const testQuestions = asked.filter((a) => a.tool === "Bash" && a.input.command === TEST_COMMAND);
    expect(testQuestions).toHaveLength(1);
    expect(testQuestions[0]?.suggestions).toContainEqual(
      expect.objectContaining({ type: "addRules", rules: [{ toolName: "Bash", ruleContent: TEST_COMMAND }] }),
    );
    // Asked once about the edits: the rule it applied let the second edit through.
    const editQuestions = asked.filter((a) => a.tool === "Edit");
    expect(editQuestions).toHaveLength(1);
    expect(editQuestions[0]?.suggestions).toContainEqual(
      expect.objectContaining({ type: "addRules", rules: [{ toolName: "Edit", ruleContent: "./src/**" }] }),
    );
    expect(edits).toEqual([`${ws.cwd}/src/sum.js`, `${ws.cwd}/src/sum.js`]);
    expect(testsPass(ws.cwd)).toBe(true);
    expect(changedLines(ws.cwd)).toEqual(["+/** a plus b. */", "-  return a - b;", "+  return a + b;"]);
  }, 90_000);
});
