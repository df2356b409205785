import type { Provider } from "../providers/types.js";
import type { AnyTool } from "../tool/types.js";

/**
 * Loads what the first tool calls will need (Tool.whenReady: for Bash the grammar and analysis,
 * ~80 ms) while the model is busy with the first request, instead of before it (start-up time)
 * or on the first call (which the executor would then have to wait for before scheduling it).
 */
export function warmUpAfterFirstRequest(provider: Provider, tools: readonly AnyTool[]): Provider {
  const loaders = tools.filter((tool) => tool.whenReady !== undefined);
  if (loaders.length === 0) return provider;
  let started = false;
  return {
    name: provider.name,
    stream(request) {
      if (!started) {
        started = true;
        setImmediate(() => {
          for (const tool of loaders) {
            try {
              tool.whenReady?.()?.catch(() => undefined);
            } catch {
              // A tool that cannot prepare is waited for (and fails closed) when it is called.
            }
          }
        });
      }
      return provider.stream(request);
    },
  };
}
