// Claude Code's `opusplan` model: Opus while the session is in plan mode, Sonnet otherwise (both
// through their ANTHROPIC_DEFAULT_*_MODEL variables when set). The session starts on Sonnet, the
// plan's `resolved` model; each change of permission mode into or out of plan switches the
// provider and the session's model facts from the next request on, as /model would.
import type { SessionEngine } from "../../loop/session.js";
import { modelInfoFor } from "../../models/resolve.js";
import type { AppState } from "../../tool/app-state.js";
import type { SessionPlan } from "./plan.js";
import type { SwitchableProvider } from "./switchable-provider.js";

/** What follows the session's state (undefined when the model is not opusplan). */
export function planModeModelFollower(
  plan: SessionPlan,
  provider: SwitchableProvider,
  session: () => SessionEngine | undefined,
): ((state: AppState) => void) | undefined {
  const planModel = plan.planModel;
  if (!planModel) return undefined;
  let inPlan = false;
  return (state) => {
    const engine = session();
    const now = state.toolPermissionContext.mode === "plan";
    if (!engine || now === inPlan) return;
    inPlan = now;
    const next = now ? planModel : plan.resolved;
    provider.switchTo(next);
    engine.setModelInfo(now ? modelInfoFor(next.provider.name, next.model) : plan.modelInfo, next.label);
  };
}
