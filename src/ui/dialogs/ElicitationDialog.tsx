// An MCP server's question for the person (elicitation). Form mode: one line per field of the
// server's schema, its defaults filled in; ↑/↓ (or Tab) move between fields, typing edits text and
// numbers, ←/→ or Space change a yes/no or a choice, Space ticks an option of a several-of list.
// Enter on Accept checks every field against the schema (required, min/max, formats) and sends
// only when all are right; Decline and Cancel send no content, and Esc is Cancel. URL mode: the
// link is shown for the person to open, and only their Accept tells the server they will.
import { Box, Text } from "ink";
import { useReducer, useRef } from "react";
import type { KeyEvent } from "../input/keys.js";
import { deleteBackward, emptyEditor, insertText, type LineEditorState, moveCursor } from "../input/line-editor.js";
import { useKeys } from "../input/use-keys.js";
import {
  type AnswerContent,
  answerOf,
  type FieldValue,
  type FormField,
  type FormValues,
  fieldsOf,
  initialValues,
  shownValue,
} from "./elicitation-form.js";
import type { PendingElicitation } from "./elicitation-queue.js";

const ACTIONS = ["Accept", "Decline", "Cancel"] as const;
type Action = (typeof ACTIONS)[number];

interface FormState {
  /** Index of the focused field; fields.length is the row of the three answers. */
  focus: number;
  action: number;
  values: FormValues;
  /** The text being edited in each text or number field. */
  editors: Record<string, LineEditorState>;
  /** The option under the cursor in each several-of field. */
  optionCursor: Record<string, number>;
  errors: Record<string, string>;
}

export function ElicitationDialog({ pending }: { pending: PendingElicitation }) {
  const { question } = pending;
  const { params } = question;
  const fields = useRef(params.mode === "url" ? [] : fieldsOf(params.requestedSchema)).current;
  const state = useRef<FormState>(initialState(fields));
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const update = (change: Partial<FormState>) => {
    state.current = { ...state.current, ...change };
    redraw();
  };

  const checking = useRef(false);
  const send = async (action: Action) => {
    if (action === "Decline") return pending.answer({ action: "decline" });
    if (action === "Cancel") return pending.answer({ action: "cancel" });
    if (params.mode === "url") return pending.answer({ action: "accept" });
    // A second Enter while the first is being checked does not send twice.
    if (checking.current) return;
    checking.current = true;
    const answer = await answerOf(fields, valuesOf(fields, state.current)).finally(() => {
      checking.current = false;
    });
    if ("errors" in answer) {
      const first = fields.findIndex((field) => answer.errors[field.name] !== undefined);
      return update({ errors: answer.errors, focus: Math.max(0, first) });
    }
    pending.answer({ action: "accept", content: answer.content satisfies AnswerContent });
  };

  useKeys((event: KeyEvent) => {
    const now = state.current;
    if (event.kind === "key" && (event.name === "escape" || event.name === "ctrlC")) return void send("Cancel");
    const onActions = now.focus >= fields.length;
    if (event.kind === "key") {
      if (event.name === "up" || event.name === "shiftTab") return update({ focus: Math.max(0, now.focus - 1) });
      if (event.name === "down" || event.name === "tab")
        return update({ focus: Math.min(fields.length, now.focus + 1) });
      if (event.name === "enter") {
        if (onActions) return void send(ACTIONS[now.action] ?? "Cancel");
        return update({ focus: now.focus + 1, ...(now.focus + 1 === fields.length && { action: 0 }) });
      }
    }
    if (onActions) {
      if (event.kind === "key" && (event.name === "left" || event.name === "right")) {
        const step = event.name === "left" ? -1 : 1;
        return update({ action: (now.action + step + ACTIONS.length) % ACTIONS.length });
      }
      // In URL mode (no fields) the answers are also the number keys.
      if (event.kind === "text" && fields.length === 0) {
        const chosen = ACTIONS[Number(event.text) - 1];
        if (chosen) return void send(chosen);
      }
      return;
    }
    const field = fields[now.focus];
    if (field) editField(field, event, now, update);
  });

  const now = state.current;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="magenta" paddingX={1}>
      <Text bold color="magenta">
        MCP server "{question.server}" {params.mode === "url" ? "asks you to open a link" : "asks"}
      </Text>
      <Text>{params.message}</Text>
      {params.mode === "url" ? (
        <Box flexDirection="column" marginTop={1}>
          <Text>
            Link: <Text color="cyan">{params.url}</Text>
          </Text>
          <Text dimColor>Accept if you will open it in your browser; nothing is opened for you.</Text>
        </Box>
      ) : (
        <Box flexDirection="column" marginTop={1}>
          {fields.map((field, index) => (
            <FieldRow
              key={field.name}
              field={field}
              focused={now.focus === index}
              value={currentValue(field, now)}
              editor={now.editors[field.name]}
              optionCursor={now.optionCursor[field.name] ?? 0}
              error={now.errors[field.name]}
            />
          ))}
        </Box>
      )}
      <Box marginTop={1}>
        {ACTIONS.map((action, index) => {
          const selected = now.focus >= fields.length && now.action === index;
          return (
            <Text key={action} color={selected ? "magenta" : undefined} inverse={selected}>
              {` ${fields.length === 0 ? `${index + 1}. ` : ""}${action} `}
            </Text>
          );
        })}
      </Box>
      <Text dimColor>
        {fields.length > 0
          ? "↑/↓ move; type to fill; ←/→ or Space change a choice; Enter on Accept sends; Esc cancels"
          : "←/→ and Enter, or 1-3; Esc cancels"}
      </Text>
    </Box>
  );
}

function initialState(fields: readonly FormField[]): FormState {
  const values = initialValues(fields);
  const editors: Record<string, LineEditorState> = {};
  for (const field of fields) {
    if (field.kind === "text" || field.kind === "number" || field.kind === "integer") {
      const text = typeof values[field.name] === "string" ? (values[field.name] as string) : "";
      editors[field.name] = { ...emptyEditor(), text, cursor: text.length };
    }
  }
  return { focus: 0, action: 0, values, editors, optionCursor: {}, errors: {} };
}

function currentValue(field: FormField, state: FormState): FieldValue {
  const editor = state.editors[field.name];
  return editor ? editor.text : state.values[field.name];
}

function valuesOf(fields: readonly FormField[], state: FormState): FormValues {
  return Object.fromEntries(fields.map((field) => [field.name, currentValue(field, state)]));
}

function editField(
  field: FormField,
  event: KeyEvent,
  now: FormState,
  update: (change: Partial<FormState>) => void,
): void {
  const errors = now.errors;
  const editor = now.editors[field.name];
  if (editor) {
    const next = editText(editor, event);
    if (next !== editor) update({ editors: { ...now.editors, [field.name]: next }, errors: without(errors, field) });
    return;
  }
  const value = now.values[field.name];
  const setValue = (next: FieldValue) =>
    update({ values: { ...now.values, [field.name]: next }, errors: without(errors, field) });
  const isKey = (...names: string[]) => event.kind === "key" && names.includes(event.name);
  const isSpace = event.kind === "text" && event.text === " ";
  if (field.kind === "boolean") {
    if (isSpace || isKey("left", "right")) setValue(value !== true);
    return;
  }
  if (field.kind === "choice") {
    // An optional choice can be left unset: the position before the first option.
    const options: Array<string | undefined> = [
      ...(field.required ? [] : [undefined]),
      ...field.choices.map((c) => c.value),
    ];
    const at = Math.max(0, options.indexOf(value as string | undefined));
    if (isSpace || isKey("right")) setValue(options[(at + 1) % options.length]);
    else if (isKey("left")) setValue(options[(at - 1 + options.length) % options.length]);
    else if (event.kind === "text" && /^[1-9]$/.test(event.text)) {
      const chosen = field.choices[Number(event.text) - 1];
      if (chosen) setValue(chosen.value);
    }
    return;
  }
  if (field.kind === "multi") {
    const cursor = now.optionCursor[field.name] ?? 0;
    if (isKey("left", "right")) {
      const step = isKey("left") ? -1 : 1;
      const next = (cursor + step + field.choices.length) % field.choices.length;
      update({ optionCursor: { ...now.optionCursor, [field.name]: next } });
    } else if (isSpace) {
      const option = field.choices[cursor]?.value;
      if (option === undefined) return;
      const chosen = Array.isArray(value) ? value : [];
      setValue(chosen.includes(option) ? chosen.filter((v) => v !== option) : [...chosen, option]);
    }
  }
}

function without(errors: Record<string, string>, field: FormField): Record<string, string> {
  const { [field.name]: _dropped, ...rest } = errors;
  return rest;
}

function editText(state: LineEditorState, event: KeyEvent): LineEditorState {
  if (event.kind === "text" || event.kind === "paste") return insertText(state, event.text.replace(/\n/g, " "));
  if (event.name === "backspace") return deleteBackward(state);
  if (event.name === "left" || event.name === "right" || event.name === "home" || event.name === "end") {
    return moveCursor(state, event.name);
  }
  return state;
}

interface FieldRowProps {
  field: FormField;
  focused: boolean;
  value: FieldValue;
  editor: LineEditorState | undefined;
  optionCursor: number;
  error: string | undefined;
}

function FieldRow({ field, focused, value, editor, optionCursor, error }: FieldRowProps) {
  const label = `${field.label}${field.required ? "*" : ""}: `;
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={focused ? "magenta" : undefined}>{focused ? "❯ " : "  "}</Text>
        <Text bold={focused}>{label}</Text>
        <FieldInput field={field} focused={focused} value={value} editor={editor} optionCursor={optionCursor} />
      </Text>
      {focused && field.description ? <Text dimColor>{`    ${field.description}`}</Text> : null}
      {error ? <Text color="red">{`    ${field.label} ${error}`}</Text> : null}
    </Box>
  );
}

function FieldInput({ field, focused, value, editor, optionCursor }: Omit<FieldRowProps, "error">) {
  if (editor) {
    if (!focused) return <Text>{editor.text}</Text>;
    return (
      <Text>
        {editor.text.slice(0, editor.cursor)}
        <Text inverse>{editor.text[editor.cursor] ?? " "}</Text>
        {editor.text.slice(editor.cursor + 1)}
      </Text>
    );
  }
  if (field.kind === "boolean")
    return <Text>{value === undefined ? "(not set)" : `[${value ? "x" : " "}] ${shownValue(field, value)}`}</Text>;
  if (field.kind === "choice") {
    return (
      <Text>
        {field.choices.map((choice, i) => (
          <Text key={choice.value} color={choice.value === value ? "magenta" : undefined}>
            {`${choice.value === value ? "◉" : "○"} ${focused && i < 9 ? `${i + 1}.` : ""}${choice.label}  `}
          </Text>
        ))}
      </Text>
    );
  }
  const chosen = Array.isArray(value) ? value : [];
  return (
    <Text>
      {field.choices.map((choice, i) => (
        <Text key={choice.value} underline={focused && i === optionCursor}>
          {`[${chosen.includes(choice.value) ? "x" : " "}] ${choice.label}`}
          <Text>{"  "}</Text>
        </Text>
      ))}
    </Text>
  );
}
