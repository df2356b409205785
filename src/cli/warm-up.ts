import { loadBashAnalysis } from "../permissions/bash/lazy-analysis.js";
import type { Provider } from "../providers/types.js";
import type { AnyTool } from "../tool/types.js";

/**
 * Loads what the first tool calls will need (the bash grammar and analysis, ~80 ms) while the
 * model is busy with the first request, instead of before it (start-up time) or on the first Bash
 * call (which would then run alone, since an unloaded analysis cannot prove a command read-only).
 */
export function warmUpAfterFirstRequest(provider: Provider, tools: readonly AnyTool[]): Provider {
  if (!tools.some((tool) => tool.name === "Bash")) return provider;
  let started = false;
  return {
    name: provider.name,
    stream(request) {
      if (!started) {
        started = true;
        setImmediate(() => loadBashAnalysis().catch(() => undefined));
      }
      return provider.stream(request);
    },
  };
}
