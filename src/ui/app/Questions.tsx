// Whatever waits for the person above the prompt, one at a time: a permission question, then an
// MCP server's form (elicitation), then a server's request to sample the model, and a pick list a
// slash command opened.

import { ElicitationDialog } from "../dialogs/ElicitationDialog.js";
import type { ElicitationQueue } from "../dialogs/elicitation-queue.js";
import { PermissionPrompt } from "../dialogs/PermissionPrompt.js";
import { PickList } from "../dialogs/PickList.js";
import { PlanApprovalPrompt } from "../dialogs/PlanApprovalPrompt.js";
import type { PendingAsk } from "../dialogs/permission-queue.js";
import { SamplingPrompt } from "../dialogs/SamplingPrompt.js";
import type { SamplingQueue } from "../dialogs/sampling-queue.js";

// The tool whose question is a plan to approve. By name: the UI sits above tools/ and may not
// import a tool (the layer rule); a tool's name is part of what the model and transcripts see.
const EXIT_PLAN_MODE_TOOL_NAME = "ExitPlanMode";

export interface Picking {
  title: string;
  choices: ReadonlyArray<{ label: string; value: string }>;
  resolve(value: string | undefined): void;
}

export interface QuestionsProps {
  /** The permission question, shown only once the session is there (`cwd` is its folder). */
  ask: { pending: PendingAsk; cwd: string } | undefined;
  question: ElicitationQueue["current"];
  sampling: SamplingQueue["current"];
  picking: Picking | undefined;
  cwd: string;
  /** A "No" to a permission question also stops the running prompt. */
  onRefused(): void;
  /** The plan the person approved, shown in the transcript. */
  onPlanApproved(plan: string): void;
}

export function Questions({ ask, question, sampling, picking, cwd, onRefused, onPlanApproved }: QuestionsProps) {
  return (
    <>
      {ask && ask.pending.request.tool.name === EXIT_PLAN_MODE_TOOL_NAME ? (
        <PlanApprovalPrompt
          key={ask.pending.id}
          ask={ask.pending}
          onAnswered={(answer) => {
            if (answer.approved) onPlanApproved(answer.plan);
            else if (!answer.withWords) onRefused();
          }}
        />
      ) : ask ? (
        <PermissionPrompt
          key={ask.pending.id}
          ask={ask.pending}
          cwd={ask.cwd}
          onAnswered={(choice) => {
            if (choice === "no") onRefused();
          }}
        />
      ) : null}
      {question ? <ElicitationDialog key={question.id} pending={question} /> : null}
      {sampling ? <SamplingPrompt key={sampling.id} pending={sampling} cwd={cwd} /> : null}
      {picking ? <PickList title={picking.title} choices={picking.choices} onPick={picking.resolve} /> : null}
    </>
  );
}
