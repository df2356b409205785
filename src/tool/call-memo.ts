// What one tool call's steps learn about its input, kept for the later steps of the same call.
// The call is resolved once (orchestration/resolve-call.ts) and that resolved call carries one
// memo through validation, the permission decision and call(): the Bash tool's permission check
// analyses the command (a full shell parse) and call() reuses that analysis for the command's facts
// instead of parsing again. A memo lives exactly as long as its call, so nothing learned about one
// call's input can be mistaken for another's, and nothing needs expiring.

/**
 * One call's memory. A key names who keeps the value and everything the value depends on (the
 * Bash analysis: the command's text and the directory it runs in), so a step that sees a rewritten
 * input (a hook's, the person's edit in the prompt) computes afresh instead of reusing a stale answer.
 */
export class CallMemo {
  private readonly values = new Map<string, unknown>();

  /** The value kept under `key`, computed by `compute` the first time it is asked for in this call. */
  once<T>(key: string, compute: () => T): T {
    if (this.values.has(key)) return this.values.get(key) as T;
    const value = compute();
    this.values.set(key, value);
    return value;
  }
}
