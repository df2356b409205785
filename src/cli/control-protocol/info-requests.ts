// The SDK's read-only questions about the session and the executable: get_session_cost (the text
// /cost would print), get_usage (the same figures in the SDK's structured shape; Warden has no plan
// rate limits, so those are null), list_models (what set_model may switch to), get_binary_version,
// and the two notices about the host: set_has_subscribers (Warden holds no output back, so there
// is nothing to change) and set_color (a headless session has no colour to set: refused).
import { sessionArtifactsDir } from "../../config/paths.js";
import { modelCatalog } from "../session/model-catalog.js";
import { wardenVersion } from "../version.js";
import type { JsonObject } from "./channel.js";
import type { StreamState } from "./stream-state.js";

function usd(value: number): string {
  return value >= 0.5 ? `$${value.toFixed(2)}` : `$${value.toFixed(4)}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function count(tokens: number): string {
  return tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(tokens);
}

/** The session's spending as /cost shows it. */
export function costText(state: StreamState, changed: { insertions: number; deletions: number }): string {
  const { session } = state.built;
  const total = session.totalCostUSD;
  const lines = [
    `Total cost:            ${total === null ? "unknown (a model's price is not known; add it in settings `models`)" : usd(total)}`,
    `Total duration (API):  ${seconds(state.totals.apiMs)}`,
    `Total duration (wall): ${seconds(performance.now() - state.totals.startedAt)}`,
    `Total code changes:    ${changed.insertions} lines added, ${changed.deletions} lines removed`,
    "Usage by model:",
  ];
  const usage = Object.entries(session.modelUsage());
  if (usage.length === 0) lines.push("    (no model requests yet)");
  for (const [model, entry] of usage) {
    const cost = entry.costUSD === null ? "price unknown" : usd(entry.costUSD);
    lines.push(
      `    ${model}: ${count(entry.inputTokens)} input, ${count(entry.outputTokens)} output, ${count(entry.cacheReadInputTokens)} cache read, ${count(entry.cacheCreationInputTokens)} cache write (${cost})`,
    );
  }
  return lines.join("\n");
}

/** Lines the session's file changes added and removed (its file history against the files now). */
async function linesChanged(state: StreamState): Promise<{ insertions: number; deletions: number }> {
  const { sessionLinesChanged } = await import("./file-checkpoints.js");
  const { session, plan } = state.built;
  return sessionLinesChanged(sessionArtifactsDir(plan.config.cwd, session.sessionId));
}

export async function handleInfoRequest(request: JsonObject, state: StreamState): Promise<JsonObject | undefined> {
  const { session } = state.built;
  switch (request.subtype) {
    case "get_binary_version":
      return { version: wardenVersion(), name: "warden" };
    case "get_session_cost":
      return {
        text: costText(state, await linesChanged(state)),
        total_cost_usd: session.totalCostUSD,
        model_usage: session.modelUsage(),
      };
    case "get_usage": {
      const lines = await linesChanged(state);
      return {
        session: {
          // Null, as in the result line, when a model's price is unknown: never a made-up zero.
          total_cost_usd: session.totalCostUSD,
          total_api_duration_ms: Math.round(state.totals.apiMs),
          total_duration_ms: Math.round(performance.now() - state.totals.startedAt),
          total_lines_added: lines.insertions,
          total_lines_removed: lines.deletions,
          model_usage: session.modelUsage(),
        },
        // API keys and local models: no subscription, no plan rate limits.
        subscription_type: null,
        rate_limits_available: false,
        rate_limits: null,
        behaviors: null,
      };
    }
    case "list_models":
      return { models: modelCatalog(state.built) };
    case "set_has_subscribers":
      // Warden writes every line as it comes (it holds no stream events back), so nothing changes.
      return {};
    case "set_color":
      throw new Error("set_color: Warden's headless session has no accent colour; nothing was changed");
    case "cancel_async_message": {
      if (typeof request.message_uuid !== "string") throw new Error("cancel_async_message: message_uuid is missing");
      const cancelled = state.cancelQueued(request.message_uuid);
      return cancelled ? { cancelled, message_uuid: request.message_uuid } : { cancelled };
    }
    default:
      return undefined;
  }
}
