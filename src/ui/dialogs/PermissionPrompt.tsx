// The permission prompt: what will run, why it asks (the engine's reason and the rule's source),
// and three answers chosen with the arrow keys and Enter or the number keys: 1 Yes; 2 Yes and
// don't ask again, with the engine's suggested rule (Tab edits it) and the settings file it goes
// to; 3 No, with optional words for the model. ESC is No without words.
import { Box, Text } from "ink";
import { useMemo, useRef, useState } from "react";
import { type AskResponse, alwaysAllowUpdates } from "../../permissions/engine/index.js";
import { formatRule, parseRule, reasonBesides } from "../../permissions/rules/index.js";
import { settingsPathFor } from "../../permissions/settings/index.js";
import type { PermissionRuleValue, PermissionUpdate } from "../../tool/permission-types.js";
import { DiffView } from "../components/DiffView.js";
import type { KeyEvent } from "../input/keys.js";
import { emptyEditor, type LineEditorState } from "../input/line-editor.js";
import { useKeys } from "../input/use-keys.js";
import { askingAgentLabel, displayPath, editOf, toolCallSummary, writeOf } from "../transcript/tool-summary.js";
import { EditedLine, editLine } from "./edited-line.js";
import type { PendingAsk } from "./permission-queue.js";

export interface PermissionPromptProps {
  ask: PendingAsk;
  cwd: string;
  /** After the answer: "no" without feedback stops the turn (the person wants to say something first). */
  onAnswered?(choice: "yes" | "always" | "no" | "feedback"): void;
}

type Stage = "choose" | "editRule" | "feedback";

export function PermissionPrompt({ ask, cwd, onAnswered }: PermissionPromptProps) {
  const { request } = ask;
  // What option 2 grants: the first is named (an allow rule, which Tab edits), the rest follow it
  // (the folder a command also needs).
  const [suggestion, ...alsoGranted] = alwaysAllowUpdates(request.ask.suggestions);
  const [selected, setSelected] = useState(0);
  const [stage, setStage] = useState<Stage>("choose");
  const [ruleText, setRuleText] = useState<LineEditorState>(() => {
    const text = suggestion?.type === "addRules" ? suggestion.rules.map(formatRule).join(", ") : "";
    return { ...emptyEditor(), text, cursor: text.length };
  });
  const [feedback, setFeedback] = useState<LineEditorState>(() => emptyEditor());
  const [error, setError] = useState<string>();
  const latest = useRef({ selected, stage, ruleText, feedback });
  latest.current = { selected, stage, ruleText, feedback };

  const options = [
    "Yes",
    ...(suggestion
      ? [`Yes, and don't ask again for ${suggestionLabel(suggestion, latest.current.ruleText.text)}`]
      : []),
    "No, and tell Warden what to do differently",
  ];
  const noIndex = options.length - 1;

  const finish = (response: AskResponse, choice: "yes" | "always" | "no" | "feedback") => {
    ask.answer(response);
    onAnswered?.(choice);
  };

  const chooseAlways = () => {
    if (!suggestion) return;
    const update = editedSuggestion(suggestion, latest.current.ruleText.text);
    if ("error" in update) {
      setError(update.error);
      setStage("editRule");
      return;
    }
    finish({ behavior: "allow", updates: [update, ...alsoGranted] }, "always");
  };

  const choose = (index: number) => {
    if (index === 0) finish({ behavior: "allow" }, "yes");
    else if (index === noIndex) setStage("feedback");
    else chooseAlways();
  };

  useKeys((event: KeyEvent) => {
    const now = latest.current;
    if (now.stage === "editRule" || now.stage === "feedback") {
      const editing = now.stage === "editRule" ? now.ruleText : now.feedback;
      const set = now.stage === "editRule" ? setRuleText : setFeedback;
      if (event.kind === "key" && event.name === "escape") {
        setStage("choose");
        return;
      }
      if (event.kind === "key" && event.name === "enter") {
        if (now.stage === "editRule") {
          setStage("choose");
          setError(undefined);
          return;
        }
        const words = now.feedback.text.trim();
        finish(
          {
            behavior: "deny",
            message: words
              ? `The user declined this ${request.tool.name} call and said: ${words}`
              : `The user declined this ${request.tool.name} call. Stop and wait for the user to say how to go on.`,
          },
          words ? "feedback" : "no",
        );
        return;
      }
      const edited = editLine(editing, event);
      latest.current = { ...now, [now.stage === "editRule" ? "ruleText" : "feedback"]: edited };
      set(edited);
      return;
    }
    if (event.kind === "text") {
      const digit = Number(event.text);
      if (Number.isInteger(digit) && digit >= 1 && digit <= options.length) {
        // The pointer follows the digit, so the feedback line opens under the option it belongs to.
        setSelected(digit - 1);
        choose(digit - 1);
      }
      return;
    }
    if (event.kind !== "key") return;
    if (event.name === "up") setSelected((s) => (s + options.length - 1) % options.length);
    else if (event.name === "down") setSelected((s) => (s + 1) % options.length);
    else if (event.name === "enter") choose(now.selected);
    else if (event.name === "tab" && suggestion?.type === "addRules") {
      setSelected(1);
      setStage("editRule");
    } else if (event.name === "escape") {
      finish({ behavior: "deny", message: `The user declined this ${request.tool.name} call.` }, "no");
    }
  });

  const edit = useMemo(
    () => request.ask.editPreview ?? editOf(request.input, "old") ?? writeOf(request.input),
    [request.ask, request.input],
  );
  const reason = request.ask.decisionReason
    ? reasonBesides(request.ask.message, request.ask.decisionReason)
    : undefined;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold color="yellow">
        {request.context.agentId
          ? `${askingAgentLabel(request.context.querySource, request.context.agentId)} asks: `
          : ""}
        {toolCallSummary(
          request.tool,
          { type: "tool_use", id: request.toolUseId, name: request.tool.name, input: request.input },
          cwd,
        )}
      </Text>
      {edit ? (
        <DiffView oldText={edit.oldText} newText={edit.newText} firstLine={edit.firstLine} maxLines={16} />
      ) : null}
      <Text dimColor>
        Why it asks: {request.ask.message}
        {!reason || request.ask.message.includes(reasonWords(reason)) ? "" : ` (${reason})`}
        {request.note ? `. ${request.note}` : ""}
      </Text>
      <Text>Do you want to proceed?</Text>
      {options.map((label, index) => (
        // The number in a column of its own: a long option wraps under its own text.
        <Box key={label}>
          <Text color={index === selected ? "cyan" : undefined}>
            {index === selected ? "❯ " : "  "}
            {index + 1}.{" "}
          </Text>
          <Box flexShrink={1}>
            <Text color={index === selected ? "cyan" : undefined}>
              {label}
              {index === 1 && suggestion ? <Text dimColor> (in {destinationLabel(suggestion, cwd)})</Text> : null}
              {index === 1
                ? alsoGranted.map((update) => (
                    <Text key={update.type}>
                      {" "}
                      and {suggestionLabel(update, "")}
                      <Text dimColor> (in {destinationLabel(update, cwd)})</Text>
                    </Text>
                  ))
                : null}
            </Text>
          </Box>
        </Box>
      ))}
      {stage === "editRule" ? (
        <Text>
          Rule: <EditedLine state={ruleText} /> <Text dimColor>(Enter to keep, Esc to go back)</Text>
        </Text>
      ) : null}
      {error ? <Text color="red">{error}</Text> : null}
      {stage === "feedback" ? (
        <Text>
          Tell Warden what to do differently: <EditedLine state={feedback} />
        </Text>
      ) : null}
      {stage === "choose" ? (
        <Text dimColor>
          ↑/↓ and Enter, or 1-{options.length}
          {suggestion?.type === "addRules" ? "; Tab edits the rule" : ""}; Esc declines
        </Text>
      ) : null}
    </Box>
  );
}

/** What option 2 stops asking about; its destination is said after it, in brackets. */
export function suggestionLabel(update: PermissionUpdate, ruleText: string): string {
  switch (update.type) {
    case "addRules":
      return ruleText;
    case "addDirectories":
      return `files in ${update.directories.join(", ")}`;
    case "setMode":
      // "(in this session only)" follows: the label itself does not say "session" again.
      return `edits: switch to ${update.mode} mode`;
  }
}

export function destinationLabel(update: PermissionUpdate, cwd: string): string {
  const path = settingsPathFor(update.destination, cwd);
  return path ? displayPath(path, cwd) : "this session only";
}

/** The suggestion with the rule text as the person left it, or why that text is not a rule. */
function editedSuggestion(update: PermissionUpdate, ruleText: string): PermissionUpdate | { error: string } {
  if (update.type !== "addRules") return update;
  const rules: PermissionRuleValue[] = [];
  for (const text of splitRules(ruleText)) {
    const parsed = parseRule(text);
    if (!parsed.ok) return { error: `Not a rule: ${parsed.error}` };
    rules.push(parsed.value);
  }
  if (rules.length === 0) return { error: "Write a rule, e.g. Bash(npm test:*)" };
  return { ...update, rules };
}

/** Rules separated by commas outside parentheses. */
function splitRules(text: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "(") depth++;
    if (ch === ")") depth = Math.max(0, depth - 1);
    if (ch === "," && depth === 0) {
      rules.push(current);
      current = "";
    } else current += ch;
  }
  rules.push(current);
  return rules.map((r) => r.trim()).filter(Boolean);
}

/** The reason without its kind ("safety check: X" → "X"), to see whether the message already says it. */
function reasonWords(reason: string): string {
  return reason.replace(/^[a-z ]+: /, "");
}
