// ExitPlanMode's question in the UI: the plan as markdown (not the text written for the model),
// Claude Code's three answers, and the mode the chosen answer leaves the session in.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createElement } from "react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AskResponse } from "../../src/permissions/engine/index.js";
import { applyPermissionUpdates } from "../../src/permissions/settings/index.js";
import { createToolUseContext } from "../../src/tool/context.js";
import { emptyPermissionContext, type PermissionAsk } from "../../src/tool/permission-types.js";
import type { AnyTool } from "../../src/tool/types.js";
import { type ExitPlanModeInput, ExitPlanModeTool } from "../../src/tools/exit-plan-mode/tool.js";
import type { PendingAsk } from "../../src/ui/dialogs/permission-queue.js";
import { tempDir } from "../loop/helpers.js";

let render: typeof import("ink-testing-library").render;
let PlanApprovalPrompt: typeof import("../../src/ui/dialogs/PlanApprovalPrompt.js").PlanApprovalPrompt;
beforeAll(async () => {
  ({ render } = await import("ink-testing-library"));
  ({ PlanApprovalPrompt } = await import("../../src/ui/dialogs/PlanApprovalPrompt.js"));
});

const plain = (frame: string) => frame.replace(/\x1b\[[0-9;]*m/g, "");
const pause = () => new Promise((r) => setTimeout(r, 30));
let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

const PLAN = "# Fix the parser\n\n1. Read `parse.ts`\n2. Handle empty input\n";

/** `inFile`: the plan file's text (none written when null); `input`: the call's input. */
async function planQuestion(
  inFile: string | null = PLAN,
  input: ExitPlanModeInput = { allowedPrompts: [{ tool: "Bash" as const, prompt: "npm test:*" }] },
) {
  const dir = tempDir("warden-plan-ui-");
  const planFilePath = join(dir, "plan.md");
  if (inFile !== null) writeFileSync(planFilePath, inFile);
  const context = createToolUseContext({
    options: {
      tools: [ExitPlanModeTool as AnyTool],
      model: "m",
      cwd: dir,
      sessionId: "s",
      sessionDir: dir,
      isNonInteractive: false,
    },
    appState: {
      toolPermissionContext: { ...emptyPermissionContext(dir, "plan"), planFilePath },
      planMode: { previousMode: "default" },
    },
    abortController: new AbortController(),
  });
  const decision = await ExitPlanModeTool.checkPermissions(input, context);
  expect(decision.behavior).toBe("ask");
  const answers: AskResponse[] = [];
  const pending: PendingAsk = {
    id: 1,
    request: {
      tool: ExitPlanModeTool as AnyTool,
      input,
      ask: decision as PermissionAsk,
      context,
      toolUseId: "p1",
      permissionContext: context.getAppState().toolPermissionContext,
    },
    answer: (response) => answers.push(response),
  };
  return { pending, answers, context, input, dir };
}

/** The question on screen; `approved` collects the plans it hands on when approved. */
function showApproving(pending: PendingAsk) {
  const approved: string[] = [];
  const app = render(
    createElement(PlanApprovalPrompt, {
      ask: pending,
      onAnswered: (answer) => {
        if (answer.approved) approved.push(answer.plan);
      },
    }),
  );
  unmount = app.unmount;
  return { app, approved };
}

describe("the plan approval question", () => {
  it("shows the plan and Claude Code's three answers, not the words meant for the model", async () => {
    const { pending } = await planQuestion();
    const app = render(createElement(PlanApprovalPrompt, { ask: pending }));
    unmount = app.unmount;
    const frame = plain(app.lastFrame() ?? "");
    expect(frame).toContain("Fix the parser");
    expect(frame).toContain("Handle empty input");
    expect(frame).toContain("1. Yes, and auto-accept edits");
    expect(frame).toContain("2. Yes, and manually approve edits");
    expect(frame).toContain("3. No, keep planning");
    expect(frame).toContain("Bash(npm test:*)");
    expect(frame).not.toContain("needs the user's approval of the plan");
    expect(frame).not.toContain("give the plan as your final answer");
  });

  it("'auto-accept edits' leaves plan mode for acceptEdits with the plan's commands granted, and hands the plan on", async () => {
    const { pending, answers, context, input, dir } = await planQuestion();
    const { app, approved } = showApproving(pending);
    await pause();
    app.stdin.write("1");
    await pause();
    const [answer] = answers;
    expect(answer?.behavior).toBe("allow");
    expect(approved[0]).toContain("# Fix the parser");
    // The engine applies the answer's updates, then the tool runs.
    context.setAppState((prev) => ({
      ...prev,
      toolPermissionContext: applyPermissionUpdates(
        prev.toolPermissionContext,
        answer?.behavior === "allow" ? (answer.updates ?? []) : [],
        dir,
      ),
    }));
    const result = await ExitPlanModeTool.call(input, context, async () => ({ behavior: "allow" }), undefined);
    expect(result.data).toMatchObject({ kind: "approved", mode: "acceptEdits", granted: ["npm test:*"] });
    expect(context.getAppState().toolPermissionContext.mode).toBe("acceptEdits");
  });

  it("shows the plan an older model sent in the call's `plan` key when the plan file holds none", async () => {
    // The tool takes that key as the plan (and saves it on approval): the person must see it too.
    const { pending } = await planQuestion(null, { plan: "# From the call\n\n1. Rename the helper\n" });
    const { app, approved } = showApproving(pending);
    const frame = plain(app.lastFrame() ?? "");
    expect(frame).toContain("From the call");
    expect(frame).toContain("Rename the helper");
    expect(frame).not.toContain("cannot be read");
    await pause();
    app.stdin.write("2");
    await pause();
    expect(approved[0]).toContain("Rename the helper");
  });

  it("'No, keep planning' sends the person's words to the model", async () => {
    const { pending, answers } = await planQuestion();
    const app = render(createElement(PlanApprovalPrompt, { ask: pending }));
    unmount = app.unmount;
    await pause();
    app.stdin.write("3");
    await pause();
    // The pointer is on the answer typed, above its feedback line, not left on the first.
    const frame = plain(app.lastFrame() ?? "");
    expect(frame).toMatch(/❯ 3\. No, keep planning/);
    expect(frame).not.toMatch(/❯ 1\./);
    app.stdin.write("split step 2");
    await pause();
    app.stdin.write("\r");
    await pause();
    expect(answers).toEqual([{ behavior: "deny", message: "The user wants to keep planning and said: split step 2" }]);
  });
});
