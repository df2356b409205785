// The foreground Bash commands of a session that are running now. The interactive UI's Ctrl+B asks
// this registry to move them all to the background; each running call registered how it does that
// (run-foreground.ts stops waiting, the registry's adopt() takes the process over).
import type { ForegroundCommandControl } from "../../tool/shell-state.js";
import type { ToolUseContext } from "../../tool/types.js";

export class ForegroundCommands implements ForegroundCommandControl {
  private readonly movers = new Set<() => void>();

  /** A running command and how to move it; the returned function unregisters it (the command ended). */
  register(moveToBackground: () => void): () => void {
    this.movers.add(moveToBackground);
    return () => this.movers.delete(moveToBackground);
  }

  running(): number {
    return this.movers.size;
  }

  moveAllToBackground(): number {
    const movers = [...this.movers];
    this.movers.clear();
    for (const move of movers) move();
    return movers.length;
  }
}

/**
 * True when the person sent this call to the background before its command started (Ctrl+B during
 * its checks); the request is used up.
 */
export function takeBackgroundWhenStarted(context: ToolUseContext): boolean {
  const id = context.toolUseId;
  if (id === undefined) return false;
  return context.channels.backgroundWhenStarted.withdraw((waiting) => waiting === id) > 0;
}

/** The session's registry, created on first use. */
export function foregroundCommands(context: ToolUseContext): ForegroundCommands {
  const existing = context.getAppState().foregroundCommands;
  if (existing instanceof ForegroundCommands) return existing;
  const registry = new ForegroundCommands();
  context.setAppState((state) => (state.foregroundCommands ? state : { ...state, foregroundCommands: registry }));
  const stored = context.getAppState().foregroundCommands;
  return stored instanceof ForegroundCommands ? stored : registry;
}
