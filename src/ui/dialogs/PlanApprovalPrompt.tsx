// The question ExitPlanMode asks: the plan itself (markdown, read from the plan file) and Claude
// Code's three answers: 1 Yes, and auto-accept edits; 2 Yes, and manually approve edits; 3 No,
// keep planning, with words for the model. A yes also grants the Bash commands the plan asked
// for (the engine's suggestions). ESC is No without words.
import { existsSync, readFileSync } from "node:fs";
import { Box, Text } from "ink";
import { useMemo, useRef, useState } from "react";
import type { AskResponse } from "../../permissions/engine/index.js";
import { formatRule } from "../../permissions/rules/index.js";
import type { PermissionMode, PermissionUpdate } from "../../tool/permission-types.js";
import { Markdown } from "../components/Markdown.js";
import type { KeyEvent } from "../input/keys.js";
import { emptyEditor, type LineEditorState } from "../input/line-editor.js";
import { useKeys } from "../input/use-keys.js";
import { EditedLine, editLine } from "./edited-line.js";
import type { PendingAsk } from "./permission-queue.js";

export interface PlanApprovalPromptProps {
  ask: PendingAsk;
  /** After the answer: the approved plan (to show it in the transcript), or a refusal. */
  onAnswered?(answer: { approved: true; plan: string } | { approved: false; withWords: boolean }): void;
}

const CHOICES: ReadonlyArray<{ label: string; mode?: PermissionMode }> = [
  { label: "Yes, and auto-accept edits", mode: "acceptEdits" },
  { label: "Yes, and manually approve edits", mode: "default" },
  { label: "No, keep planning" },
];

/**
 * The plan as the file holds it now (what the model wrote and asks approval for); when the file
 * holds none, the plan an older model sent in the call's `plan` key, which the tool takes as the
 * plan (and saves to the file on approval): the person approves what they were shown.
 */
export function planOf(ask: PendingAsk): string {
  const path = ask.request.context.getAppState().toolPermissionContext.planFilePath;
  let inFile: string | undefined;
  try {
    inFile = path ? readFileSync(path, "utf8").trim() || undefined : undefined;
  } catch {
    inFile = undefined;
  }
  if (inFile !== undefined) return inFile;
  const key = (ask.request.input as { plan?: unknown }).plan;
  if (typeof key === "string" && key.trim() !== "") return key.trim();
  if (!path) return "(no plan file)";
  return existsSync(path) ? "(the plan file is empty)" : `(the plan file ${path} cannot be read)`;
}

export function PlanApprovalPrompt({ ask, onAnswered }: PlanApprovalPromptProps) {
  const plan = useMemo(() => planOf(ask), [ask]);
  const grants = (ask.request.ask.suggestions ?? []).filter(
    (s): s is Extract<PermissionUpdate, { type: "addRules" }> => s.type === "addRules",
  );
  const [selected, setSelected] = useState(0);
  const [feedback, setFeedback] = useState<LineEditorState | undefined>();
  const latest = useRef({ selected, feedback });
  latest.current = { selected, feedback };

  const approve = (mode: PermissionMode) => {
    const updates: PermissionUpdate[] = [{ type: "setMode", mode, destination: "session" }, ...grants];
    ask.answer({ behavior: "allow", updates });
    onAnswered?.({ approved: true, plan });
  };
  const refuse = (words: string) => {
    const response: AskResponse = {
      behavior: "deny",
      message: words
        ? `The user wants to keep planning and said: ${words}`
        : "The user wants to keep planning. Stop and wait for the user to say how to go on.",
    };
    ask.answer(response);
    onAnswered?.({ approved: false, withWords: words !== "" });
  };
  const choose = (index: number) => {
    // The pointer follows a digit too, so the feedback line opens under the option it belongs to.
    setSelected(index);
    const mode = CHOICES[index]?.mode;
    if (mode) approve(mode);
    else setFeedback(emptyEditor());
  };

  useKeys((event: KeyEvent) => {
    const now = latest.current;
    if (now.feedback) {
      if (event.kind === "key" && event.name === "escape") return setFeedback(undefined);
      if (event.kind === "key" && event.name === "enter") return refuse(now.feedback.text.trim());
      const edited = editLine(now.feedback, event);
      latest.current = { ...now, feedback: edited };
      setFeedback(edited);
      return;
    }
    if (event.kind === "text") {
      const digit = Number(event.text);
      if (Number.isInteger(digit) && digit >= 1 && digit <= CHOICES.length) choose(digit - 1);
      return;
    }
    if (event.kind !== "key") return;
    if (event.name === "up") setSelected((s) => (s + CHOICES.length - 1) % CHOICES.length);
    else if (event.name === "down") setSelected((s) => (s + 1) % CHOICES.length);
    else if (event.name === "enter") choose(now.selected);
    else if (event.name === "escape") refuse("");
  });

  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold color="cyan">
        Ready to code? Here is the plan:
      </Text>
      <Box marginY={1} flexDirection="column">
        <Markdown text={plan} />
      </Box>
      {grants.length > 0 ? (
        <Text dimColor>
          With it, these run without asking this session: {grants.flatMap((g) => g.rules.map(formatRule)).join(", ")}
        </Text>
      ) : null}
      <Text>Would you like to proceed?</Text>
      {CHOICES.map((choice, index) => (
        <Text key={choice.label} color={index === selected ? "cyan" : undefined}>
          {index === selected ? "❯ " : "  "}
          {index + 1}. {choice.label}
        </Text>
      ))}
      {feedback ? (
        <Text>
          Tell Warden what to change in the plan: <EditedLine state={feedback} />
        </Text>
      ) : (
        <Text dimColor>↑/↓ and Enter, or 1-{CHOICES.length}; Esc keeps planning</Text>
      )}
    </Box>
  );
}
