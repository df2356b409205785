// What a CanUseTool answered, checked before the call is run on it. A library's own callback is
// typed, but JavaScript (or a cast) can hand back anything: `{ behavior: "maybe" }`, nothing, a
// deny without its message, an allow whose new input is a string. Each used to reach the model
// as a crash of ours ("content is not iterable"); each is now a refusal that says what came back.
import type { PermissionDecision } from "../tool/permission-types.js";

const BEHAVIORS = new Set(["allow", "deny", "ask"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function shown(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 200);
  } catch {
    return String(value);
  }
}

function refusal(why: string): PermissionDecision {
  const message = `The permission check gave no usable answer (${why}), so the call was not run.`;
  return { behavior: "deny", message, decisionReason: { type: "other", reason: message } };
}

/** The decision as given when its shape is one the executor can act on; a refusal naming it otherwise. */
export function checkedDecision(decision: unknown): PermissionDecision {
  if (!isObject(decision) || !BEHAVIORS.has(String(decision.behavior))) {
    return refusal(`canUseTool returned ${shown(decision)}; expected { behavior: "allow" | "deny" | "ask" }`);
  }
  if (decision.updatedInput !== undefined && !isObject(decision.updatedInput)) {
    return refusal(`its updatedInput ${shown(decision.updatedInput)} is not an object`);
  }
  if (decision.behavior !== "allow" && typeof decision.message !== "string") {
    // A refusal without its words is still a refusal.
    return {
      ...(decision as unknown as PermissionDecision),
      message: "Permission to use this tool was denied.",
    } as PermissionDecision;
  }
  return decision as unknown as PermissionDecision;
}
