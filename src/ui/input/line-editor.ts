// The prompt's text as an immutable value and the edits keys make to it: cursor moves, multi-line
// input, history (up/down), and large pastes kept out of sight behind a marker until the prompt is
// sent. Pure, so the prompt component is a thin view over it.

export interface LineEditorState {
  text: string;
  /** Cursor position in `text` (0..text.length). */
  cursor: number;
  /** Pasted texts behind their markers, by number. */
  pastes: ReadonlyMap<number, string>;
  /** Sent prompts, oldest first (their markers expanded). */
  history: readonly string[];
  /** Which history entry is shown, or undefined while editing a new prompt. */
  historyIndex?: number;
  /** The unsent text put aside while browsing history. */
  draft?: string;
}

/** A paste longer than this many lines (or characters) is shown as a marker. */
export const PASTE_COLLAPSE_LINES = 3;
export const PASTE_COLLAPSE_CHARS = 800;

export function emptyEditor(history: readonly string[] = []): LineEditorState {
  return { text: "", cursor: 0, pastes: new Map(), history };
}

export function insertText(state: LineEditorState, text: string): LineEditorState {
  const next = state.text.slice(0, state.cursor) + text + state.text.slice(state.cursor);
  return { ...state, text: next, cursor: state.cursor + text.length, historyIndex: undefined };
}

/** The prompt holding `text` alone (a completed command), the cursor at its end. */
export function replaceText(state: LineEditorState, text: string): LineEditorState {
  return { ...state, text, cursor: text.length, historyIndex: undefined };
}

/** The lines of a pasted text as a person counts them: a final newline ends the last line, it starts none. */
function pastedLines(text: string): number {
  const lines = text.split("\n").length;
  return text.endsWith("\n") ? lines - 1 : lines;
}

export function pasteMarker(id: number, text: string): string {
  const lines = pastedLines(text);
  return lines > 1 ? `[Pasted text #${id} +${lines} lines]` : `[Pasted text #${id} ${text.length} chars]`;
}

/** A paste: short ones go in as they are, long ones as a marker that send() expands. */
export function insertPaste(state: LineEditorState, text: string): LineEditorState {
  const lines = pastedLines(text);
  if (lines <= PASTE_COLLAPSE_LINES && text.length <= PASTE_COLLAPSE_CHARS) return insertText(state, text);
  const id = state.pastes.size + 1;
  const pastes = new Map(state.pastes);
  pastes.set(id, text);
  return insertText({ ...state, pastes }, pasteMarker(id, text));
}

export function deleteBackward(state: LineEditorState): LineEditorState {
  if (state.cursor === 0) return state;
  // A marker goes as a whole: a half-deleted marker would no longer expand.
  const before = state.text.slice(0, state.cursor);
  const marker = /\[Pasted text #\d+ [^\]]+\]$/.exec(before)?.[0];
  const width = marker ?? before.slice(-1);
  const start = state.cursor - width.length;
  return { ...state, text: state.text.slice(0, start) + state.text.slice(state.cursor), cursor: start };
}

export function deleteForward(state: LineEditorState): LineEditorState {
  if (state.cursor >= state.text.length) return state;
  return { ...state, text: state.text.slice(0, state.cursor) + state.text.slice(state.cursor + 1) };
}

export function deleteWordBackward(state: LineEditorState): LineEditorState {
  const before = state.text.slice(0, state.cursor);
  const start = before.replace(/\S+\s*$/, "").length;
  return { ...state, text: state.text.slice(0, start) + state.text.slice(state.cursor), cursor: start };
}

export function deleteToLineStart(state: LineEditorState): LineEditorState {
  const start = state.text.lastIndexOf("\n", state.cursor - 1) + 1;
  return { ...state, text: state.text.slice(0, start) + state.text.slice(state.cursor), cursor: start };
}

export function deleteToLineEnd(state: LineEditorState): LineEditorState {
  const end = lineEnd(state.text, state.cursor);
  return { ...state, text: state.text.slice(0, state.cursor) + state.text.slice(end) };
}

export function moveCursor(state: LineEditorState, to: "left" | "right" | "home" | "end"): LineEditorState {
  switch (to) {
    case "left":
      return { ...state, cursor: Math.max(0, state.cursor - 1) };
    case "right":
      return { ...state, cursor: Math.min(state.text.length, state.cursor + 1) };
    case "home":
      return { ...state, cursor: state.text.lastIndexOf("\n", state.cursor - 1) + 1 };
    case "end":
      return { ...state, cursor: lineEnd(state.text, state.cursor) };
  }
}

/**
 * Up: the line above in a multi-line prompt, else the previous history entry. Down: the line
 * below, else the next entry (and finally the draft put aside).
 */
export function moveVertical(state: LineEditorState, direction: "up" | "down"): LineEditorState {
  const lineStart = state.text.lastIndexOf("\n", state.cursor - 1) + 1;
  const column = state.cursor - lineStart;
  if (direction === "up" && lineStart > 0) {
    const prevStart = state.text.lastIndexOf("\n", lineStart - 2) + 1;
    return { ...state, cursor: Math.min(prevStart + column, lineStart - 1) };
  }
  const end = lineEnd(state.text, state.cursor);
  if (direction === "down" && end < state.text.length) {
    const nextEnd = lineEnd(state.text, end + 1);
    return { ...state, cursor: Math.min(end + 1 + column, nextEnd) };
  }
  return browseHistory(state, direction);
}

function browseHistory(state: LineEditorState, direction: "up" | "down"): LineEditorState {
  const { history } = state;
  if (history.length === 0) return state;
  if (direction === "up") {
    const index = state.historyIndex === undefined ? history.length - 1 : Math.max(0, state.historyIndex - 1);
    const text = history[index] ?? "";
    return {
      ...state,
      text,
      cursor: text.length,
      historyIndex: index,
      draft: state.historyIndex === undefined ? state.text : state.draft,
    };
  }
  if (state.historyIndex === undefined) return state;
  if (state.historyIndex >= history.length - 1) {
    const text = state.draft ?? "";
    return { ...state, text, cursor: text.length, historyIndex: undefined, draft: undefined };
  }
  const index = state.historyIndex + 1;
  const text = history[index] ?? "";
  return { ...state, text, cursor: text.length, historyIndex: index };
}

/** The prompt as sent (markers replaced by what was pasted), and the editor emptied for the next one. */
export function send(state: LineEditorState): { prompt: string; next: LineEditorState } {
  const prompt = expandPastes(state.text, state.pastes);
  const history = prompt.trim() === "" ? state.history : [...state.history, prompt];
  return { prompt, next: emptyEditor(history) };
}

export function expandPastes(text: string, pastes: ReadonlyMap<number, string>): string {
  return text.replace(/\[Pasted text #(\d+) [^\]]+\]/g, (marker, id: string) => pastes.get(Number(id)) ?? marker);
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf("\n", from);
  return end === -1 ? text.length : end;
}
