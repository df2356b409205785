// The prompt: what the person types, with a visible cursor, several lines (Alt+Enter, Ctrl+J or a
// backslash before Enter), history on up/down, and long pastes shown as a marker. Keys the prompt
// does not use itself (ESC, Shift+Tab, Ctrl+C...) go to `onOtherKey`.
import { Box, Text } from "ink";
import { useEffect, useRef, useState } from "react";
import { commonPrefix, mentionAtCursor } from "../input/file-mentions.js";
import type { KeyEvent, KeyName } from "../input/keys.js";
import {
  deleteBackward,
  deleteForward,
  deleteToLineEnd,
  deleteToLineStart,
  deleteWordBackward,
  emptyEditor,
  insertPaste,
  insertText,
  type LineEditorState,
  moveCursor,
  moveVertical,
  replaceText,
  send,
} from "../input/line-editor.js";
import { useEchoingEditor } from "../input/use-echoing-editor.js";
import { useKeys } from "../input/use-keys.js";

export interface PromptProps {
  onSubmit(prompt: string): void;
  /** Keys the prompt leaves alone, with whether the prompt is empty (Ctrl+D exits only then). */
  onOtherKey?(name: KeyName, promptIsEmpty: boolean): void;
  /** Whether keys reach the prompt (false while a dialog has them). */
  active?: boolean;
  /** Shown dimmed while the prompt is empty. */
  placeholder?: string;
  /** A single character before the text. */
  marker?: string;
  /** Sent prompts of this session (and earlier ones), oldest first. */
  history?: readonly string[];
  /** Completes the `@path` before the cursor (Tab); several candidates are listed under the prompt. */
  completeMention?(partial: string): string[];
  /**
   * The commands a prompt that is only `/partial` could be: listed under the prompt, up/down choose
   * one, Tab completes it, Enter runs it (or completes it when it needs arguments).
   */
  suggestCommands?(text: string): ReadonlyArray<CommandSuggestion>;
  /** The prompt has just become a `/command` (the list of commands is worth reading again). */
  onSlash?(): void;
  /** Commands listed under the prompt at most (the rest are counted); fits the terminal's height. */
  maxSuggestions?: number;
  /** Text given back to the prompt (queued messages the model never read), put before any draft; once per `seq`. */
  restore?: { text: string; seq: number };
}

export interface CommandSuggestion {
  name: string;
  description: string;
  argumentHint?: string;
}

export function Prompt({
  onSubmit,
  onOtherKey,
  active = true,
  placeholder,
  marker = ">",
  history,
  completeMention,
  suggestCommands,
  onSlash,
  maxSuggestions = 8,
  restore,
}: PromptProps) {
  // Several keys can arrive in one chunk, before React renders again: each must see the last edit,
  // and so does every render (a typed key's own frame may still be deferred).
  const { latest, box, set } = useEchoingEditor(() => emptyEditor(history), `${marker} `);
  const editor = latest.current;
  const [candidates, setCandidates] = useState<string[]>([]);
  const update = (state: LineEditorState, typed?: string) => {
    const previous = latest.current.text;
    set(state, typed);
    if (state.text !== previous) choose(0);
    if (!previous.startsWith("/") && state.text.startsWith("/")) onSlash?.();
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per restore, whatever the draft is then
  useEffect(() => {
    if (!restore) return;
    const draft = latest.current.text;
    update(replaceText(latest.current, draft === "" ? restore.text : `${restore.text}\n${draft}`));
  }, [restore?.seq]);
  /** Which listed command up/down have chosen; back to the first whenever the text changes. */
  const [chosen, setChosen] = useState(0);
  const chosenRef = useRef(0);
  const choose = (index: number) => {
    chosenRef.current = index;
    setChosen(index);
  };
  useKeys((event) => {
    const current = latest.current;
    if (event.kind === "key" && event.name === "tab" && completeMention) {
      const partial = mentionAtCursor(current.text.slice(0, current.cursor));
      if (partial !== undefined) {
        const found = completeMention(partial);
        const prefix = commonPrefix(found);
        if (prefix.length > partial.length) update(insertText(current, prefix.slice(partial.length)));
        setCandidates(found.length > 1 ? found : []);
        return;
      }
    }
    const listed = event.kind === "key" && suggestCommands ? suggestCommands(current.text) : [];
    if (event.kind === "key" && listed.length > 0) {
      const selected = listed[Math.min(chosenRef.current, listed.length - 1)] as CommandSuggestion;
      switch (event.name) {
        case "up":
        case "down": {
          const step = event.name === "up" ? -1 : 1;
          choose((Math.min(chosenRef.current, listed.length - 1) + step + listed.length) % listed.length);
          return;
        }
        case "tab":
          // The chosen command, ready for its arguments (a space after it closes the list).
          update(replaceText(current, `/${selected.name} `));
          return;
        case "enter": {
          // A command whose arguments are required (`<file>`) is completed for them; others run.
          if (selected.argumentHint?.trimStart().startsWith("<")) {
            update(replaceText(current, `/${selected.name} `));
            return;
          }
          const { prompt, next } = send(replaceText(current, `/${selected.name}`));
          update(next);
          onSubmit(prompt);
          return;
        }
        default:
          break;
      }
    }
    if (candidates.length > 0) setCandidates([]);
    const outcome = applyKey(current, event);
    if (outcome.kind === "edit") {
      // Typed characters may be echoed ahead of the frame, unless the frame has more to show for
      // them (the list of commands under a `/partial`).
      const listing = (text: string) => (suggestCommands?.(text).length ?? 0) > 0;
      const typed =
        event.kind === "text" && !listing(current.text) && !listing(outcome.state.text) ? event.text : undefined;
      update(outcome.state, typed);
    } else if (outcome.kind === "submit") {
      const { prompt, next } = send(current);
      update(next);
      if (prompt.trim() !== "") onSubmit(prompt);
    } else if (outcome.name === "ctrlC" && current.text !== "") {
      // Ctrl+C on a draft clears it, as a shell does; it goes to the history, so ↑ brings it back.
      update(send(current).next);
      onOtherKey?.(outcome.name, false);
    } else onOtherKey?.(outcome.name, current.text === "");
  }, active);
  return (
    <Box ref={box} flexDirection="column">
      {renderLines(editor, marker, active, placeholder)}
      {candidates.length > 0 ? <Text dimColor>{candidates.slice(0, 12).join("  ")}</Text> : null}
      {active && suggestCommands ? renderSuggestions(suggestCommands(editor.text), chosen, maxSuggestions) : null}
    </Box>
  );
}

const SUGGESTION_COLUMN_MAX = 40;

function suggestionLabel(c: CommandSuggestion): string {
  return `/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ""}`;
}

/** `text` padded to `width`, or cut to it with an ellipsis. */
function fitColumn(text: string, width: number): string {
  if (text.length <= width) return text.padEnd(width);
  return `${text.slice(0, Math.max(1, width - 1))}…`;
}

/**
 * The commands a `/partial` could be, the chosen one marked; a list longer than `max` shows a
 * window that keeps the chosen one in view, with what lies outside it counted.
 */
function renderSuggestions(suggestions: ReadonlyArray<CommandSuggestion>, chosen: number, max: number) {
  if (suggestions.length === 0) return null;
  const selected = Math.min(chosen, suggestions.length - 1);
  // One row is kept for the count of those not shown.
  const rows = suggestions.length > max ? Math.max(1, max - 1) : suggestions.length;
  const first = Math.min(Math.max(0, selected - rows + 1), suggestions.length - rows);
  const shown = suggestions.slice(first, first + rows);
  // The name column is as wide as its longest entry up to a cap: one long argument hint (a
  // plugin's, a user command's) must not push every description off the screen.
  const width = Math.min(SUGGESTION_COLUMN_MAX, Math.max(...shown.map((c) => suggestionLabel(c).length)) + 1);
  const hidden = suggestions.length - shown.length;
  return (
    <Box flexDirection="column">
      {shown.map((c, index) => {
        const isChosen = first + index === selected;
        return (
          <Text key={c.name} wrap="truncate-end">
            <Text color="cyan" bold={isChosen} inverse={isChosen}>
              {`${isChosen ? "❯ " : "  "}${fitColumn(suggestionLabel(c), width)} `}
            </Text>
            <Text dimColor={!isChosen}>{c.description}</Text>
          </Text>
        );
      })}
      {hidden > 0 ? <Text dimColor>{`  … ${hidden} more (↑↓ to move, or type more of the name)`}</Text> : null}
    </Box>
  );
}

type KeyOutcome = { kind: "edit"; state: LineEditorState } | { kind: "submit" } | { kind: "other"; name: KeyName };

export function applyKey(state: LineEditorState, event: KeyEvent): KeyOutcome {
  if (event.kind === "text") return { kind: "edit", state: insertText(state, event.text) };
  if (event.kind === "paste") return { kind: "edit", state: insertPaste(state, event.text) };
  switch (event.name) {
    case "enter":
      // A backslash at the end of the line continues the prompt on the next one.
      if (state.text.slice(0, state.cursor).endsWith("\\")) {
        return { kind: "edit", state: insertText(deleteBackward(state), "\n") };
      }
      return { kind: "submit" };
    case "newline":
      return { kind: "edit", state: insertText(state, "\n") };
    case "backspace":
      return { kind: "edit", state: deleteBackward(state) };
    case "delete":
      return { kind: "edit", state: deleteForward(state) };
    case "ctrlW":
      return { kind: "edit", state: deleteWordBackward(state) };
    case "ctrlU":
      return { kind: "edit", state: deleteToLineStart(state) };
    case "ctrlK":
      return { kind: "edit", state: deleteToLineEnd(state) };
    case "left":
    case "right":
    case "home":
    case "end":
      return { kind: "edit", state: moveCursor(state, event.name) };
    case "ctrlA":
      return { kind: "edit", state: moveCursor(state, "home") };
    case "ctrlE":
      return { kind: "edit", state: moveCursor(state, "end") };
    case "up":
    case "down":
      return { kind: "edit", state: moveVertical(state, event.name) };
    default:
      return { kind: "other", name: event.name };
  }
}

function renderLines(editor: LineEditorState, marker: string, showCursor: boolean, placeholder: string | undefined) {
  if (editor.text === "") {
    return (
      <Text>
        <Text bold>{marker} </Text>
        {showCursor ? <Text inverse> </Text> : null}
        {placeholder ? <Text dimColor>{placeholder}</Text> : null}
      </Text>
    );
  }
  const lines = editor.text.split("\n");
  let offset = 0;
  return lines.map((line, index) => {
    const start = offset;
    offset += line.length + 1;
    const cursorHere = showCursor && editor.cursor >= start && editor.cursor <= start + line.length;
    const column = editor.cursor - start;
    const prefix = index === 0 ? `${marker} ` : "  ";
    return (
      // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity beyond their position
      <Text key={index}>
        <Text bold>{prefix}</Text>
        {cursorHere ? (
          <>
            {line.slice(0, column)}
            <Text inverse>{line[column] ?? " "}</Text>
            {line.slice(column + 1)}
          </>
        ) : (
          line
        )}
      </Text>
    );
  });
}
