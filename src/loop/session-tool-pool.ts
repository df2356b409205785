// The tools a session offers the model: its own (the options', and any added later, such as the
// Skill tool once a skill appears) and its MCP servers' (replaced when a server's list changes),
// assembled in request order under the permission rules. A running prompt works on a copy that is
// updated in place, so a change reaches its next model request without restarting it.
import type { RulesByBehavior } from "../tool/permission-types.js";
import { assembleToolPool } from "../tool/pool.js";
import type { AnyTool } from "../tool/types.js";

export class SessionToolPool {
  private pool: readonly AnyTool[];
  private ownTools: readonly AnyTool[];
  private mcpTools: readonly AnyTool[];
  /** The running prompt's copy of the pool, updated in place when the tools change mid-prompt. */
  private runningTools: AnyTool[] | undefined;

  constructor(
    ownTools: readonly AnyTool[],
    mcpTools: readonly AnyTool[],
    private readonly rules: () => RulesByBehavior,
  ) {
    this.ownTools = ownTools;
    this.mcpTools = mcpTools;
    this.pool = assembleToolPool(ownTools, mcpTools, rules());
  }

  /** The tools the model may call now, in request order. */
  get current(): readonly AnyTool[] {
    return this.pool;
  }

  /** A copy for a prompt that starts: later changes are made to it in place. */
  forRunningPrompt(): AnyTool[] {
    this.runningTools = [...this.pool];
    return this.runningTools;
  }

  setMcpTools(mcpTools: readonly AnyTool[]): void {
    this.mcpTools = mcpTools;
    this.reassemble();
  }

  /** Adds own tools not yet there (by name). */
  addTools(tools: readonly AnyTool[]): void {
    const names = new Set(this.ownTools.map((tool) => tool.name));
    this.ownTools = [...this.ownTools, ...tools.filter((tool) => !names.has(tool.name))];
    this.reassemble();
  }

  private reassemble(): void {
    this.pool = assembleToolPool(this.ownTools, this.mcpTools, this.rules());
    this.runningTools?.splice(0, this.runningTools.length, ...this.pool);
  }
}
