// The custom status line (settings `statusLine`): rendered again when what it shows may have
// changed (a prompt starts or ends, the mode changes, tokens arrive), at most once per
// STATUS_LINE_DEBOUNCE_MS, one run at a time; the last line it printed stays until the next.
import { useEffect, useRef, useState } from "react";
import type { SessionHandle } from "./session-handle.js";

export const STATUS_LINE_DEBOUNCE_MS = 300;

/** `changeKey`: anything that, when it changes, may change what the line shows. */
export function useCustomStatusLine(handle: SessionHandle | undefined, changeKey: string): string | undefined {
  const [line, setLine] = useState<string>();
  const running = useRef(false);
  const again = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: changeKey is what tells the effect to run again
  useEffect(() => {
    const render = handle?.customStatusLine;
    if (!render) return;
    const timer = setTimeout(function run() {
      if (running.current) {
        again.current = true;
        return;
      }
      running.current = true;
      void render()
        .then((text) => setLine(text))
        .catch(() => setLine(undefined))
        .finally(() => {
          running.current = false;
          if (again.current) {
            again.current = false;
            run();
          }
        });
    }, STATUS_LINE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [handle, changeKey]);
  return line;
}
