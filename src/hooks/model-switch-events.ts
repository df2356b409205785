// The events around a switch of the session's model (PreModelSwitch, PostModelSwitch) and before
// each `!`command`` line of a command or skill runs (PreSkillShellCommand), with the input fields
// and answers the Agent SDK's types give them.
import type { ModelSwitchFacts, SkillShellCommand } from "../tool/tool-call-hooks.js";
import type { HookDispatcher } from "./hook-dispatch.js";
import type { HookOutcome } from "./hook-output.js";
import { failuresOf } from "./turn-events.js";

function payloadOf(facts: ModelSwitchFacts): Record<string, unknown> {
  return {
    from_model: facts.fromModel,
    to_model: facts.toModel,
    requested_model: facts.requestedModel,
    source: facts.source,
    context_tokens: facts.contextTokens,
    prompt_cache_warm: facts.promptCacheWarm,
    cache_ttl: "5m",
    estimated_cache_write_usd: facts.estimatedCacheWriteUsd,
    pricing: facts.pricing,
  };
}

/**
 * Why the hooks keep something from happening, or undefined: exit code 2, `continue: false`,
 * `decision: "block"`, or a permissionDecision other than allow (`ask` and `defer` cannot be
 * answered where these events fire, so they refuse, as a headless Claude Code session does).
 */
function refusalOf(outcomes: readonly HookOutcome[], event: string): string | undefined {
  const reasons: string[] = [];
  for (const outcome of outcomes) {
    if (outcome.kind === "blocking") reasons.push(outcome.message);
    if (outcome.kind !== "success" || !outcome.json) continue;
    const json = outcome.json;
    const specific = json.hookSpecificOutput;
    const decision = specific?.permissionDecision;
    const why = specific?.permissionDecisionReason ?? json.reason ?? json.stopReason;
    if (json.continue === false || json.decision === "block" || decision === "deny") {
      reasons.push(why ?? `a ${event} hook refused it`);
    } else if (decision === "ask" || decision === "defer") {
      reasons.push(`a ${event} hook answered "${decision}", which cannot be asked here${why ? `: ${why}` : ""}`);
    } else if (event === "PreSkillShellCommand" && specific?.updatedInput !== undefined) {
      // The SDK's contract: a changed command is never run in place of the written one.
      reasons.push(`a ${event} hook tried to change the command, which is never applied`);
    }
  }
  return reasons.length > 0 ? reasons.join("\n") : undefined;
}

/**
 * Before the session's model is switched (no matcher). Refused (`denied`, the model unchanged)
 * by a hook as refusalOf says; a hook that fails is reported and the switch goes on.
 */
export async function preModelSwitch(
  hooks: HookDispatcher,
  facts: ModelSwitchFacts,
  signal?: AbortSignal,
): Promise<{ denied?: string; errors: string[] }> {
  const outcomes = await hooks.run("PreModelSwitch", undefined, payloadOf(facts), signal);
  const denied = refusalOf(outcomes, "PreModelSwitch");
  return { ...failuresOf(outcomes), ...(denied !== undefined && { denied }) };
}

/** After the switch (no matcher): additionalContext reaches the model with the next request the new model serves. */
export async function postModelSwitch(
  hooks: HookDispatcher,
  facts: ModelSwitchFacts,
  signal?: AbortSignal,
): Promise<{ additionalContext: string[]; errors: string[] }> {
  const outcomes = await hooks.run("PostModelSwitch", undefined, payloadOf(facts), signal);
  const additionalContext = outcomes.flatMap((o) => {
    const added = o.kind === "success" ? o.json?.hookSpecificOutput?.additionalContext : undefined;
    return added ? [added] : [];
  });
  return { additionalContext, ...failuresOf(outcomes) };
}

/**
 * Before one `!`command`` line runs (matcher: the shell tool, `Bash`). Refused as refusalOf says;
 * a hook that fails refuses it too (what a hook could not check does not run), with its message.
 */
export async function preSkillShellCommand(
  hooks: HookDispatcher,
  line: SkillShellCommand,
  signal?: AbortSignal,
): Promise<{ denied?: string }> {
  const outcomes = await hooks.run(
    "PreSkillShellCommand",
    "Bash",
    {
      tool_name: "Bash",
      tool_input: { command: line.command },
      tool_use_id: line.id,
      command_name: line.commandName,
      invoked_by: line.invokedBy,
    },
    signal,
  );
  const failures = failuresOf(outcomes).errors.map((message) => `${message}, so the command was not run`);
  const refused = refusalOf(outcomes, "PreSkillShellCommand");
  const denied = [...failures, ...(refused !== undefined ? [refused] : [])];
  return denied.length > 0 ? { denied: denied.join("\n") } : {};
}
