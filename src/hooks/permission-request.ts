// PermissionRequest hooks: the permission engine is about to ask somebody about a tool call, and
// a hook may answer for them (hookSpecificOutput.decision: {behavior: "allow", updatedInput?} or
// {behavior: "deny", message?, interrupt?}; exit code 2 denies with stderr). Any deny wins; a hook
// that fails has no say, so the question goes on to the person (or is refused where nobody can
// answer). What an allow may skip is decided by the engine (src/permissions/engine/), not here.
import * as z from "zod";
import type { PermissionRequestDecision, PermissionRequestResult } from "../tool/tool-call-hooks.js";
import type { HookOutcome } from "./hook-output.js";

export type { PermissionRequestResult };

const decisionSchema = z.lazy(() =>
  z.discriminatedUnion("behavior", [
    z.looseObject({ behavior: z.literal("allow"), updatedInput: z.record(z.string(), z.unknown()).optional() }),
    z.looseObject({
      behavior: z.literal("deny"),
      message: z.string().optional(),
      interrupt: z.boolean().optional(),
    }),
  ]),
);

export function foldPermissionRequestOutcomes(outcomes: readonly HookOutcome[]): PermissionRequestResult {
  const errors: string[] = [];
  const denials: string[] = [];
  let interrupt = false;
  let allow: PermissionRequestDecision | undefined;
  for (const outcome of outcomes) {
    if (outcome.kind === "failed") errors.push(outcome.message);
    else if (outcome.kind === "blocking") denials.push(outcome.message);
    else if (outcome.json?.hookSpecificOutput) {
      const raw = (outcome.json.hookSpecificOutput as Record<string, unknown>).decision;
      if (raw === undefined) continue;
      const parsed = decisionSchema.safeParse(raw);
      if (!parsed.success) {
        errors.push(`hook "${outcome.hook}" gave a PermissionRequest decision of the wrong shape`);
        continue;
      }
      if (parsed.data.behavior === "deny") {
        denials.push(parsed.data.message ?? "denied by a PermissionRequest hook");
        interrupt ||= parsed.data.interrupt === true;
      } else if (!allow) {
        allow = parsed.data.updatedInput
          ? { behavior: "allow", updatedInput: parsed.data.updatedInput }
          : { behavior: "allow" };
      }
    }
  }
  if (denials.length > 0) return { decision: { behavior: "deny", message: denials.join("\n"), interrupt }, errors };
  return allow ? { decision: allow, errors } : { errors };
}
