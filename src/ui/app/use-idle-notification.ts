// Notification hooks of type `idle_prompt`: once a prompt has finished and the person has left the
// input alone for a while (60 s, as Claude Code; WARDEN_IDLE_NOTIFY_MS changes it), the hooks are
// told Warden waits for them, once per wait. Typing nothing is the only thing that counts: a new
// prompt (the session busy again) cancels the wait.
import { useEffect, useRef } from "react";
import type { ToolCallHooks } from "../../tool/tool-call-hooks.js";
import type { SessionHandle } from "./session-handle.js";

export const IDLE_NOTIFY_MS = 60_000;

/** Starts the wait; the returned function cancels it. Fire-and-forget: nothing waits on the hooks. */
export function armIdleNotification(hooks: ToolCallHooks | undefined, delayMs: number): () => void {
  if (!hooks?.has("Notification")) return () => {};
  const timer = setTimeout(() => {
    void hooks.notification("idle_prompt", "Warden is waiting for your input").catch(() => undefined);
  }, delayMs);
  timer.unref();
  return () => clearTimeout(timer);
}

function idleDelay(): number {
  const fromEnv = Number(process.env.WARDEN_IDLE_NOTIFY_MS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : IDLE_NOTIFY_MS;
}

/** Arms the idle notification each time the session goes from busy to idle. */
export function useIdleNotification(handle: SessionHandle | undefined, busy: boolean): void {
  const wasBusy = useRef(false);
  useEffect(() => {
    const finished = wasBusy.current && !busy;
    wasBusy.current = busy;
    if (!handle || !finished) return;
    return armIdleNotification(handle.engine.getAppState().hooks, idleDelay());
  }, [handle, busy]);
}
