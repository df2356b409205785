// `deferred_tools_delta` and `mcp_instructions_delta`: the system prompt names the deferred tools
// and carries the MCP servers' instructions as they were when the session started, and is never
// rewritten for them (a changed system prompt throws away the prompt cache of the whole
// conversation). When the set changes mid-session (a server connects late, its tools change), only
// the change is told, in a reminder.
import type { McpServerInstructions } from "../../tool/app-state.js";
import type { AttachmentSource } from "../../tool/types.js";

/** What the request prefix knows of deferred tools (src/loop/request-prefix.ts). */
export interface DeferredToolsView {
  /** Names the system prompt lists as deferred; undefined until it is first rendered. */
  inSystemPrompt(): readonly string[] | undefined;
  /** Deferred tools of the pool now, loaded ones included (undefined before the first request). */
  available(): readonly string[] | undefined;
}

export function deferredToolsDeltaSource(view: DeferredToolsView): AttachmentSource {
  let told: Set<string> | undefined;
  const delta = (): string | undefined => {
    const baseline = view.inSystemPrompt();
    const now = view.available();
    if (baseline === undefined || now === undefined) return undefined;
    told ??= new Set(baseline);
    const current = new Set(now);
    const added = [...current].filter((name) => !told?.has(name));
    const removed = [...told].filter((name) => !current.has(name));
    told = current;
    const lines: string[] = [];
    if (added.length) lines.push(`New deferred tools are available (load them with ToolSearch): ${added.join(", ")}.`);
    if (removed.length) lines.push(`These deferred tools are no longer available: ${removed.join(", ")}.`);
    return lines.length ? lines.join("\n") : undefined;
  };
  return {
    kind: "deferred_tools_delta",
    collect() {
      const text = delta();
      return text ? [{ text }] : undefined;
    },
    afterCompaction() {
      // The deltas told so far were summarised away: tell the whole difference from the system prompt again.
      const baseline = view.inSystemPrompt();
      told = baseline ? new Set(baseline) : undefined;
      return delta();
    },
  };
}

export function mcpInstructionsDeltaSource(): AttachmentSource {
  /** Server → instructions the model has: the system prompt's, then the deltas. */
  let told: Map<string, string> | undefined;
  let baseline: Map<string, string> | undefined;
  const delta = (now: readonly McpServerInstructions[]): string | undefined => {
    const current = new Map(now.map((entry) => [entry.server, entry.text]));
    const previous = told ?? new Map();
    const lines: string[] = [];
    for (const [server, text] of current) {
      if (previous.get(server) !== text) lines.push(`## ${server}\n${text}`);
    }
    const gone = [...previous.keys()].filter((server) => !current.has(server));
    told = current;
    if (lines.length === 0 && gone.length === 0) return undefined;
    const parts: string[] = [];
    if (lines.length) parts.push(`MCP servers sent new instructions for their tools:\n\n${lines.join("\n\n")}`);
    if (gone.length) parts.push(`These MCP servers are gone; their instructions no longer apply: ${gone.join(", ")}.`);
    return parts.join("\n\n");
  };
  return {
    kind: "mcp_instructions_delta",
    collect({ context }) {
      const now = context.getAppState().mcpInstructions ?? [];
      if (!told) {
        // The first request's instructions are the ones in the system prompt.
        baseline = new Map(now.map((entry) => [entry.server, entry.text]));
        told = new Map(baseline);
        return undefined;
      }
      const text = delta(now);
      return text ? [{ text }] : undefined;
    },
    afterCompaction({ context }) {
      if (!baseline) return undefined;
      told = new Map(baseline);
      return delta(context.getAppState().mcpInstructions ?? []);
    },
  };
}
