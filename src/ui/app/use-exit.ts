// The session's exit from the UI (Ctrl+C twice, Ctrl+D, /exit): it waits for one more frame, drawn
// with `exiting` set, so that the frame left on screen holds no passing hint (it read "Press
// Ctrl+C again to exit" after the exit).
import { useCallback, useEffect, useState } from "react";

export function useExitAfterLastFrame(onExit: (code: number) => void): { exiting: boolean; exit: () => void } {
  const [exiting, setExiting] = useState(false);
  useEffect(() => {
    if (exiting) onExit(0);
  }, [exiting, onExit]);
  const exit = useCallback(() => setExiting(true), []);
  return { exiting, exit };
}
