// Plan mode: EnterPlanMode turns the session read-only except its plan file; ExitPlanMode presents
// the plan and, once approved, restores the mode the session was in, with the Bash permissions the
// plan asked for granted only when a person (or the library's callback) granted them.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { formatRule } from "../../../src/permissions/rules/index.js";
import type { PermissionMode } from "../../../src/tool/permission-types.js";
import type { PlanApprovalRequest } from "../../../src/tool/user-dialog.js";
import { BashTool } from "../../../src/tools/bash/tool.js";
import { EditTool } from "../../../src/tools/edit/tool.js";
import { EnterPlanModeTool } from "../../../src/tools/enter-plan-mode/tool.js";
import { ExitPlanModeTool } from "../../../src/tools/exit-plan-mode/tool.js";
import { ReadTool } from "../../../src/tools/read/tool.js";
import { WriteTool } from "../../../src/tools/write/tool.js";
import { type Harness, type HarnessOptions, makeHarness, schemaProblem } from "./harness.js";

let harness: Harness | undefined;
afterEach(() => harness?.cleanup());

const mode = (h: Harness): PermissionMode => h.context.getAppState().toolPermissionContext.mode;
/** The Bash allow rules in force (the harness's own rules are session rules too, but not Bash ones). */
const sessionAllowRules = (h: Harness) =>
  h.context
    .getAppState()
    .toolPermissionContext.rules.allow.filter((rule) => rule.value.toolName === "Bash")
    .map((rule) => formatRule(rule.value));

/** A harness whose session entered plan mode (from `from`) and wrote a plan. */
async function planning(from: PermissionMode, options: HarnessOptions = {}): Promise<Harness> {
  const h = makeHarness({ mode: from, ...options });
  const entered = await h.call(EnterPlanModeTool, {});
  expect(entered.result.is_error, entered.text).toBeFalsy();
  const wrote = await h.call(WriteTool, { file_path: h.planFile, content: "# Plan\n1. Add hello.txt\n" });
  expect(wrote.result.is_error, wrote.text).toBeFalsy();
  return h;
}

describe("EnterPlanMode", () => {
  it("switches to plan mode without asking, gives the plan file and remembers the mode to return to", async () => {
    harness = makeHarness({ mode: "dontAsk" });
    const outcome = await harness.call(EnterPlanModeTool, {});
    expect(outcome.result.is_error).toBeFalsy();
    expect(outcome.text).toContain(`Write your plan to ${harness.planFile}`);
    expect(harness.asked).toEqual([]);
    expect(mode(harness)).toBe("plan");
    expect(harness.context.getAppState().planMode).toEqual({ previousMode: "dontAsk" });
  });

  it("refuses when plan mode is already on, and in a subagent", async () => {
    harness = makeHarness({ mode: "plan" });
    const again = await harness.call(EnterPlanModeTool, {});
    expect(again.text).toBe(
      `Plan mode is already on. Your plan file is ${harness.planFile}. Write the plan there and call ExitPlanMode.`,
    );
    harness.cleanup();
    harness = makeHarness({ agentId: "helper" });
    expect((await harness.call(EnterPlanModeTool, {})).text).toContain("not for a subagent");
    expect(schemaProblem(EnterPlanModeTool, { reason: "x" })).toContain("reason");
  });
});

describe("in plan mode", () => {
  it("refuses writes and changing commands, but writes, reads and edits the plan file", async () => {
    harness = await planning("acceptEdits");
    expect(readFileSync(harness.planFile, "utf8")).toContain("Add hello.txt");
    const write = await harness.call(WriteTool, { file_path: join(harness.project, "hello.txt"), content: "hi" });
    expect(write.result.is_error).toBe(true);
    expect(write.text).toContain("plan mode is read-only");
    expect(write.text).toContain(`Only the plan file ${harness.planFile} may be written`);
    expect(existsSync(join(harness.project, "hello.txt"))).toBe(false);
    const bash = await harness.call(BashTool, { command: `touch ${join(harness.project, "x")}` });
    expect(bash.result.is_error).toBe(true);
    expect(existsSync(join(harness.project, "x"))).toBe(false);
    // A command that only reads, outside the project, is not said to change anything.
    const outside = await harness.call(BashTool, { command: "cat /etc/hostname" });
    expect(outside.result.is_error).toBe(true);
    expect(outside.text).toContain("it reads /etc/hostname, outside the working directories");
    expect(outside.text).not.toContain("would change something");
    expect((await harness.call(ReadTool, { file_path: harness.planFile })).text).toContain("# Plan");
    const edit = await harness.call(EditTool, {
      file_path: harness.planFile,
      old_string: "1. Add hello.txt",
      new_string: "1. Add hello.txt\n2. Test it",
    });
    expect(edit.result.is_error, edit.text).toBeFalsy();
  });

  it("does not take a link planted at the plan file's place for the plan file", async () => {
    harness = makeHarness({ mode: "plan" });
    const target = join(harness.project, "target.txt");
    mkdirSync(harness.sessionDir, { recursive: true });
    symlinkSync(target, harness.planFile);
    const write = await harness.call(WriteTool, { file_path: harness.planFile, content: "x" });
    expect(write.result.is_error).toBe(true);
    expect(existsSync(target)).toBe(false);
  });
});

describe("ExitPlanMode", () => {
  it("refuses outside plan mode and without a plan", async () => {
    harness = makeHarness();
    expect((await harness.call(ExitPlanModeTool, {})).text).toContain("You are not in plan mode");
    harness.cleanup();
    harness = makeHarness({ mode: "plan" });
    expect((await harness.call(ExitPlanModeTool, {})).text).toContain(`The plan file ${harness.planFile} is missing`);
    writeFileSync(harness.planFile, "  \n");
    expect((await harness.call(ExitPlanModeTool, {})).text).toContain("missing or empty");
    expect(schemaProblem(ExitPlanModeTool, { allowedPrompts: [{ tool: "Write", prompt: "x" }] })).toContain("tool");
  });

  it("headless: stays in plan mode, writes still refused, with a message saying why and what to do", async () => {
    harness = await planning("default");
    const outcome = await harness.call(ExitPlanModeTool, {});
    expect(outcome.result.is_error).toBe(true);
    expect(outcome.text).toContain("needs the user's approval of the plan");
    expect(outcome.text).toContain("give the plan as your final answer");
    expect(mode(harness)).toBe("plan");
    // The plan stands on its own lines, the reason is not glued to its last line, and the advice
    // is what works without a person: no allow rule that would skip the review.
    expect(outcome.text).toContain("\n\n# Plan\n1. Add hello.txt\n\n");
    expect(outcome.text).not.toMatch(/hello\.txt\s*\(/);
    expect(outcome.text).not.toContain("--allowedTools");
    expect(outcome.text).toContain("runs again without plan mode");
    expect(outcome.text).toContain("--permission-prompt-tool stdio");
  });

  it("takes an older model's plan key: shown when there is no plan file, then saved there; the file wins when it has one", async () => {
    harness = makeHarness({
      mode: "default",
      answer: (request) => (request.tool.name === "ExitPlanMode" ? { behavior: "allow" } : { behavior: "deny" }),
    });
    expect((await harness.call(EnterPlanModeTool, {})).result.is_error).toBeFalsy();
    const plan = "# Plan from the key\n1. Add hello.txt";
    const exit = await harness.call(ExitPlanModeTool, { plan });
    expect(exit.text).not.toMatch(/Unrecognized key|missing or empty/);
    expect(exit.result.is_error, exit.text).toBeFalsy();
    expect(harness.asked.at(-1)?.ask.message).toContain(plan);
    expect(readFileSync(harness.planFile, "utf8")).toBe(`${plan}\n`);
    expect(mode(harness)).toBe("default");

    // With a plan in the file, the file is the plan; the key is ignored (and not written).
    expect((await harness.call(EnterPlanModeTool, {})).result.is_error).toBeFalsy();
    writeFileSync(harness.planFile, "# Plan from the file\n");
    const again = await harness.call(ExitPlanModeTool, { plan: "# Stale key plan" });
    expect(again.result.is_error, again.text).toBeFalsy();
    expect(harness.asked.at(-1)?.ask.message).toContain("# Plan from the file");
    expect(harness.asked.at(-1)?.ask.message).not.toContain("Stale key plan");
    expect(readFileSync(harness.planFile, "utf8")).toBe("# Plan from the file\n");
    // Other tools stay strict about keys they do not know.
    expect(schemaProblem(EnterPlanModeTool, { plan: "x" })).toMatch(/plan/);
  });

  it("blocks writes until a person approves the plan; then the earlier mode and the granted Bash rules apply", async () => {
    harness = await planning("acceptEdits", {
      answer: (request) =>
        request.tool.name === "ExitPlanMode"
          ? { behavior: "allow", updates: request.ask.suggestions }
          : { behavior: "deny", message: "no" },
    });
    const target = join(harness.project, "hello.txt");
    expect((await harness.call(WriteTool, { file_path: target, content: "hi" })).result.is_error).toBe(true);
    const exit = await harness.call(ExitPlanModeTool, { allowedPrompts: [{ tool: "Bash", prompt: "npm test:*" }] });
    expect(exit.result.is_error, exit.text).toBeFalsy();
    const ask = harness.asked.find((request) => request.tool.name === "ExitPlanMode");
    expect(ask?.ask.message).toContain("# Plan\n1. Add hello.txt");
    expect(ask?.ask.message).toContain("Bash(npm test:*)");
    expect(exit.text).toContain("The plan was approved. Plan mode is off; the permission mode is now acceptEdits.");
    expect(exit.text).toContain("Bash commands allowed without asking: npm test:*.");
    expect(mode(harness)).toBe("acceptEdits");
    expect(harness.context.getAppState().planMode).toBeUndefined();
    expect(sessionAllowRules(harness)).toContain("Bash(npm test:*)");
    const write = await harness.call(WriteTool, { file_path: target, content: "hi" });
    expect(write.result.is_error, write.text).toBeFalsy();
    expect(readFileSync(target, "utf8")).toBe("hi");
  });

  it("a pattern that cannot be granted is reported as not granted, and the plan still reaches the user", async () => {
    for (const refused of ["node:*", "*", "bash:*", "python3 -c:*", "sudo make install"]) {
      harness?.cleanup();
      harness = await planning("acceptEdits", {
        answer: (request) =>
          request.tool.name === "ExitPlanMode"
            ? { behavior: "allow", updates: request.ask.suggestions }
            : { behavior: "deny", message: "no" },
      });
      const exit = await harness.call(ExitPlanModeTool, {
        allowedPrompts: [
          { tool: "Bash", prompt: refused },
          { tool: "Bash", prompt: "npm test:*" },
        ],
      });
      expect(exit.result.is_error, exit.text).toBeFalsy();
      const ask = harness.asked.find((request) => request.tool.name === "ExitPlanMode");
      expect(ask?.ask.message, refused).toContain("# Plan\n1. Add hello.txt");
      expect(ask?.ask.message, refused).toMatch(/Not offered: .*cannot be granted: .*(every command|arbitrary code)/);
      expect(ask?.ask.suggestions, refused).toEqual([
        {
          type: "addRules",
          behavior: "allow",
          rules: [{ toolName: "Bash", ruleContent: "npm test:*" }],
          destination: "session",
        },
      ]);
      expect(exit.text).toContain("Bash commands allowed without asking: npm test:*.");
      expect(exit.text).toContain(`Not granted (these will be asked for as usual): ${refused} (cannot be granted:`);
      expect(sessionAllowRules(harness)).toEqual(["Bash(npm test:*)"]);
      expect(mode(harness)).toBe("acceptEdits");
    }
  });

  it("a person who approves the plan but not its permissions: none are added, the model is told", async () => {
    harness = await planning("default", { answer: () => ({ behavior: "allow" }) });
    const exit = await harness.call(ExitPlanModeTool, { allowedPrompts: [{ tool: "Bash", prompt: "npm test:*" }] });
    expect(exit.text).toContain("Not granted (these will be asked for as usual): npm test:*.");
    expect(sessionAllowRules(harness)).toEqual([]);
    expect(mode(harness)).toBe("default");
  });

  it("an allow rule for ExitPlanMode approves plans without asking, never the commands they ask for", async () => {
    harness = await planning("default", { rules: { allow: ["ExitPlanMode"] } });
    const exit = await harness.call(ExitPlanModeTool, {
      allowedPrompts: [{ tool: "Bash", prompt: "curl example.com:*" }],
    });
    expect(exit.result.is_error).toBeFalsy();
    expect(harness.asked).toEqual([]);
    expect(sessionAllowRules(harness)).toEqual([]);
    expect(mode(harness)).toBe("default");
  });

  it("entered from bypassPermissions, the plan goes ahead without asking", async () => {
    harness = await planning("bypassPermissions");
    const exit = await harness.call(ExitPlanModeTool, {});
    expect(exit.result.is_error, exit.text).toBeFalsy();
    expect(harness.asked).toEqual([]);
    expect(mode(harness)).toBe("bypassPermissions");
  });

  it("returns to default instead of auto once auto mode's circuit breaker has tripped", async () => {
    harness = await planning("auto", { rules: { allow: ["ExitPlanMode"] } });
    harness.context.setAppState((prev) => ({ ...prev, autoModeCircuitTripped: true }));
    const exit = await harness.call(ExitPlanModeTool, {});
    expect(exit.text).toContain("the permission mode is now default");
    harness.cleanup();
    harness = await planning("auto", { rules: { allow: ["ExitPlanMode"] } });
    await harness.call(ExitPlanModeTool, {});
    expect(mode(harness)).toBe("auto");
  });

  it("a library's approvePlan callback decides: a rejection keeps plan mode, an approval grants what it says", async () => {
    const requests: PlanApprovalRequest[] = [];
    let approve = false;
    harness = await planning("acceptEdits", {
      userDialog: {
        approvePlan: async (request) => {
          requests.push(request);
          return approve
            ? { approved: true, allowedPrompts: [{ tool: "Bash", prompt: "npm test:*" }] }
            : { approved: false, feedback: "add a rollback step" };
        },
      },
    });
    const prompts = [
      { tool: "Bash", prompt: "npm test:*" },
      { tool: "Bash", prompt: "npm run build:*" },
    ];
    const rejected = await harness.call(ExitPlanModeTool, { allowedPrompts: prompts });
    expect(rejected.text).toContain("The plan was not approved. The user said: add a rollback step");
    expect(mode(harness)).toBe("plan");
    expect(requests[0]).toMatchObject({ planFilePath: harness.planFile, nextMode: "acceptEdits" });
    expect(requests[0]?.plan).toContain("Add hello.txt");
    approve = true;
    const approved = await harness.call(ExitPlanModeTool, { allowedPrompts: prompts });
    expect(approved.text).toContain("Bash commands allowed without asking: npm test:*.");
    expect(approved.text).toContain("Not granted (these will be asked for as usual): npm run build:*.");
    expect(sessionAllowRules(harness)).toEqual(["Bash(npm test:*)"]);
    expect(mode(harness)).toBe("acceptEdits");
    expect(harness.asked).toEqual([]);
  });
});
