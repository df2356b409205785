// Typed characters drawn on the terminal the moment they arrive, ahead of the next frame. A frame
// costs React, yoga and ink's output a few ms of CPU, and on a loaded machine that wait is what a
// person feels as a lagging prompt; the echo itself costs one short write. It covers the common
// case only (plain characters added at the end of a one-line prompt that fits the width); every
// other edit waits for the frame. The frame that follows draws the same text, so nothing is kept
// out of step: the echo writes into the prompt's line of the frame ink last drew, then puts the
// cursor back where ink left it (the start of the row under the frame), so ink's own bookkeeping
// of what is on screen stays true.
import type { DOMElement } from "ink";
import type { LineEditorState } from "./line-editor.js";

/** Where the prompt's first line is in the frame ink last laid out. */
export interface PromptPlace {
  /** Rows from the row under the frame (ink leaves the cursor there) up to the prompt's line. */
  rowsUp: number;
  /** The frame's height in rows. */
  frameHeight: number;
}

/** Finds `element`'s first row in the last layout, counted from the bottom of the whole frame. */
export function promptPlace(element: DOMElement | null): PromptPlace | undefined {
  let top = 0;
  let node: DOMElement | undefined = element ?? undefined;
  let root: DOMElement | undefined;
  while (node) {
    if (!node.yogaNode) return undefined;
    if (node.parentNode) top += node.yogaNode.getComputedTop();
    else root = node;
    node = node.parentNode;
  }
  const frameHeight = root?.yogaNode?.getComputedHeight();
  if (frameHeight === undefined || Number.isNaN(top)) return undefined;
  return { rowsUp: frameHeight - top, frameHeight };
}

export interface EchoCase {
  before: LineEditorState;
  after: LineEditorState;
  /** The characters just typed. */
  typed: string;
  /** What stands before the text on the prompt's line (`"> "`). */
  prefix: string;
  /** The cursor as the frame draws it after the text (an inverse space, or a plain one without colour). */
  cursorBlock: string;
  place: PromptPlace | undefined;
  columns: number;
  rows: number;
}

const PLAIN = /^[\x20-\x7e]*$/;

/**
 * The bytes that show `typed` at once, or undefined when this edit is not one the echo covers:
 * printable ASCII appended at the end of a single-line prompt of printable ASCII (so one
 * character is one column), staying clear of the last column (no wrap), in a frame shorter than
 * the terminal (a taller one is redrawn from the top of the screen by ink, and the cursor is not
 * where this assumes).
 */
export function echoBytes(c: EchoCase): string | undefined {
  const { before, after, typed, prefix, place } = c;
  if (!place || typed === "" || !PLAIN.test(typed) || !PLAIN.test(before.text) || !PLAIN.test(prefix)) return undefined;
  if (before.cursor !== before.text.length || after.text !== before.text + typed) return undefined;
  if (after.cursor !== after.text.length) return undefined;
  if (place.frameHeight >= c.rows || place.rowsUp < 1 || place.rowsUp > place.frameHeight) return undefined;
  const column = prefix.length + before.text.length;
  // One column more for the cursor block the frame draws after the text, and the last column left
  // alone (a character there puts the terminal in its wrap-pending state).
  if (column + typed.length + 1 >= c.columns) return undefined;
  // Up to the prompt's line, to the column after the text, the characters and the cursor, the rest
  // of the line cleared (a placeholder shown while the prompt was empty), and back down.
  return `\x1b[${place.rowsUp}A\x1b[${column + 1}G${typed}${c.cursorBlock}\x1b[K\r\x1b[${place.rowsUp}B`;
}
