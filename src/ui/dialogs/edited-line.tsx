// A one-line text field inside a dialog (a rule being edited, words for the model): how it is
// drawn, with the cursor shown inverse, and how a key changes it. Newlines become spaces: the
// field is one line and Enter answers the dialog.
import { Text } from "ink";
import type { KeyEvent } from "../input/keys.js";
import { deleteBackward, insertText, type LineEditorState, moveCursor } from "../input/line-editor.js";

export function EditedLine({ state }: { state: LineEditorState }) {
  return (
    <Text>
      {state.text.slice(0, state.cursor)}
      <Text inverse>{state.text[state.cursor] ?? " "}</Text>
      {state.text.slice(state.cursor + 1)}
    </Text>
  );
}

export function editLine(state: LineEditorState, event: KeyEvent): LineEditorState {
  if (event.kind === "text" || event.kind === "paste") return insertText(state, event.text.replace(/\n/g, " "));
  if (event.name === "backspace") return deleteBackward(state);
  if (event.name === "left" || event.name === "right" || event.name === "home" || event.name === "end") {
    return moveCursor(state, event.name);
  }
  return state;
}
