// Switching the session's model under it (SessionCommands.setModel: the SDK's set_model, and `model`
// in apply_flag_settings):
// requests go to the new model from the next one, and its usage is counted under its own id, with
// its own price and limits.

import type { SessionEngine } from "../../loop/session.js";
import { type ModelInfo, modelInfoFor } from "../../models/resolve.js";
import { resolveModel } from "./model-choice.js";
import type { SessionPlan } from "./plan.js";
import type { SwitchableProvider } from "./switchable-provider.js";

/**
 * Resolves `wanted` (undefined or "default": the session's own model) and returns the switch, so a
 * caller checks everything else before anything changes. A name that does not resolve throws.
 */
export async function switchModel(
  built: { plan: SessionPlan; provider: SwitchableProvider; session: SessionEngine },
  wanted: string | undefined,
): Promise<{ to: ModelInfo; apply: () => void }> {
  const name = wanted?.trim();
  const next =
    name === undefined || name === "" || name === "default"
      ? built.plan.resolved
      : await resolveModel(name, built.plan.config.cwd);
  const to =
    next.label === built.plan.resolved.label ? built.plan.modelInfo : modelInfoFor(next.provider.name, next.model);
  return {
    to,
    apply: () => {
      built.provider.switchTo(next);
      built.session.setModelInfo(to, next.label);
    },
  };
}
