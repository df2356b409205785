// A terminal made narrower reflows what it shows: each line of the old, wider frame wraps onto two
// or more rows. ink then erases only as many rows as the frame had before, so part of the old frame
// stayed above the new one (a duplicate prompt and rules). On a shrink the screen and its
// scrollback are cleared and everything is drawn again at the new width, as /clear does; the
// transcript is printed again through `redrawFinished` (its <Static> part is written only once).
import { useEffect, useRef } from "react";

/** Erases the screen and its scrollback and puts the cursor home (what /clear and a shrink write). */
export const CLEAR_SCREEN_AND_SCROLLBACK = "\x1b[2J\x1b[3J\x1b[H";

/** Clears the screen with `writeAboveFrame` whenever `stdout` gets fewer columns. */
export function useRedrawOnShrink(
  stdout: NodeJS.WriteStream,
  writeAboveFrame: (data: string) => void,
  redrawFinished: () => void,
): void {
  const columns = useRef(stdout.columns);
  useEffect(() => {
    const onResize = () => {
      const before = columns.current;
      columns.current = stdout.columns;
      if (before === undefined || stdout.columns === undefined || stdout.columns >= before) return;
      // Through ink, which draws its frame again after the clear (straight to stdout, the prompt
      // would stay off the screen until the next render).
      writeAboveFrame(CLEAR_SCREEN_AND_SCROLLBACK);
      redrawFinished();
    };
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [stdout, writeAboveFrame, redrawFinished]);
}
