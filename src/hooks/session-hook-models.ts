// The session side of prompt and agent hooks (the contract is HookModels in ./model-hook.ts): a
// prompt hook is a side query to the session's provider; an agent hook is a subagent with the
// read-only tools Read, Grep and Glob, in dontAsk mode, so it never stops to ask anybody and can
// change nothing. Its own SubagentStart/SubagentStop hooks do not run (see HOOK_VERIFIER_AGENT).
import { randomBytes } from "node:crypto";
import type { AgentDefinition } from "../tool/agents.js";
import type { CanUseTool, ToolUseContext } from "../tool/types.js";
import type { HookModelRequest, HookModels } from "./model-hook.js";

/** The agent type of an agent hook's subagent; subagent hooks skip it, so a hook cannot start itself again. */
export const HOOK_VERIFIER_AGENT = "hook-verifier";
const VERIFIER_TOOLS = ["Read", "Grep", "Glob"];
const VERIFIER_MAX_TURNS = 50;

export interface SessionForHookModels {
  toolUseContext(abortController: AbortController): ToolUseContext;
}

export function createHookModels(session: SessionForHookModels, canUseTool: CanUseTool): HookModels {
  const contextFor = (signal: AbortSignal): ToolUseContext => {
    const controller = new AbortController();
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
    return session.toolUseContext(controller);
  };
  return {
    async ask(request: HookModelRequest) {
      const sideQuery = contextFor(request.signal).options.sideQuery;
      if (!sideQuery) throw new Error("this session cannot ask a model outside the conversation");
      const answer = await sideQuery.run({
        purpose: "hook",
        system: request.system,
        prompt: request.prompt,
        signal: request.signal,
        maxTokens: 1024,
        ...(request.model !== undefined ? { modelId: request.model } : { model: "small" as const }),
      });
      return answer.text;
    },
    async verify(request: HookModelRequest) {
      const context = contextFor(request.signal);
      const subagents = context.options.subagents;
      if (!subagents) throw new Error("this session cannot run subagents");
      const definition: AgentDefinition = {
        agentType: HOOK_VERIFIER_AGENT,
        whenToUse: "Checks a condition for an agent hook",
        systemPrompt: request.system,
        tools: VERIFIER_TOOLS,
        source: "built-in",
      };
      const provider = context.options.model.split(":")[0];
      const modelSpec =
        request.model === undefined
          ? undefined
          : request.model.includes(":")
            ? request.model
            : `${provider}:${request.model}`;
      const result = await subagents.run(
        {
          agentId: `a${randomBytes(8).toString("hex")}`,
          definition,
          description: "Agent hook check",
          prompt: request.prompt,
          ...(modelSpec !== undefined && { modelSpec }),
          tools: context.options.tools.filter((tool) => VERIFIER_TOOLS.includes(tool.name)),
          permissionMode: "dontAsk",
          maxTurns: VERIFIER_MAX_TURNS,
          background: false,
          canUseTool,
        },
        context,
      );
      if (result.error) throw new Error(result.error);
      return result.text;
    },
  };
}
