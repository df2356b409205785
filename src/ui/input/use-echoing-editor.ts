// The prompt's text, echoed the moment a key arrives (direct-echo.ts), with the frame that redraws
// the UI for it deferred while the person types on: a frame costs React, yoga and ink a few ms of
// CPU per key, and on a busy machine a process that keeps the CPU busy waits longer for it, which
// is what makes the next key late. Frames still come at least every FRAME_MAX_DELAY_MS, at once
// for any edit the echo does not cover (or whose frame shows more, as the list under a `/partial`),
// and whenever anything else redraws (the prompt always renders the latest text, never a stale
// copy).
import { type DOMElement, useStdout } from "ink";
import { useEffect, useRef, useState } from "react";
import { echoBytes, promptPlace } from "./direct-echo.js";
import type { LineEditorState } from "./line-editor.js";

/** A directly echoed key's frame waits this long for the next key... */
const FRAME_DELAY_MS = 200;
/** ...and no longer than this after the first key it would have drawn. */
const FRAME_MAX_DELAY_MS = 1000;

export interface EchoingEditor {
  /** The text as of the last key (render from this, not from a copy kept in state). */
  readonly latest: { readonly current: LineEditorState };
  /** Goes on the element whose first line is the prompt's line. */
  readonly box: React.RefObject<DOMElement | null>;
  /** Sets the text; `typed`: the characters a key added, which may be echoed ahead of the frame. */
  set(state: LineEditorState, typed?: string): void;
}

export function useEchoingEditor(initial: () => LineEditorState, prefix: string): EchoingEditor {
  const [, setFrameState] = useState(initial);
  const latest = useRef<LineEditorState | undefined>(undefined);
  if (!latest.current) latest.current = initial();
  const box = useRef<DOMElement>(null);
  const deferred = useRef<{ timer: NodeJS.Timeout; since: number } | undefined>(undefined);
  const { stdout } = useStdout();
  useEffect(() => () => clearTimeout(deferred.current?.timer), []);

  const set = (state: LineEditorState, typed?: string) => {
    const before = latest.current as LineEditorState;
    latest.current = state;
    const echo =
      typed !== undefined && stdout.isTTY
        ? echoBytes({
            before,
            after: state,
            typed,
            prefix,
            // The cursor as the frame draws it: inverse, unless colour (and so every style) is off.
            cursorBlock: stdout.hasColors?.() ? "\x1b[7m \x1b[27m" : " ",
            place: promptPlace(box.current),
            columns: stdout.columns,
            rows: stdout.rows,
          })
        : undefined;
    const pending = deferred.current;
    if (pending) clearTimeout(pending.timer);
    deferred.current = undefined;
    if (!echo) {
      setFrameState(state);
      return;
    }
    stdout.write(echo);
    const now = performance.now();
    const since = pending?.since ?? now;
    const wait = Math.max(0, Math.min(FRAME_DELAY_MS, since + FRAME_MAX_DELAY_MS - now));
    deferred.current = {
      since,
      timer: setTimeout(() => {
        deferred.current = undefined;
        setFrameState(latest.current as LineEditorState);
      }, wait),
    };
  };
  return { latest: latest as { current: LineEditorState }, box, set };
}
