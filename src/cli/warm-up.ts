import { onNextRequestWritten } from "../providers/http-fetch.js";
import type { Provider } from "../providers/types.js";
import type { AnyTool } from "../tool/types.js";

/**
 * Watches for the session's first model request to be on its way: written whole to the socket for
 * the providers over HTTP, or, for one without a wire (replay), its first event or its end. Work
 * started then (loading what tools need, finishing MCP handshakes) runs while the model thinks,
 * never between the process start and the first request.
 */
export function watchFirstRequest(provider: Provider): { provider: Provider; sent: Promise<void> } {
  let markSent!: () => void;
  const sent = new Promise<void>((resolve) => {
    markSent = resolve;
  });
  let first = true;
  return {
    sent,
    provider: {
      name: provider.name,
      stream(request) {
        if (!first) return provider.stream(request);
        first = false;
        onNextRequestWritten(markSent);
        const inner = provider.stream(request);
        return (async function* () {
          try {
            for await (const event of inner) {
              markSent();
              yield event;
            }
          } finally {
            markSent();
          }
        })();
      },
    },
  };
}

/**
 * Loads what the first tool calls will need (Tool.whenReady: for Bash the grammar and analysis,
 * ~80 ms) once the first request is out, while the model is busy with it, instead of before it
 * (start-up time) or on the first call (which the executor would then have to wait for).
 */
export function warmUpAfter(sent: Promise<void>, tools: readonly AnyTool[]): void {
  const loaders = tools.filter((tool) => tool.whenReady !== undefined);
  if (loaders.length === 0) return;
  void sent.then(() =>
    setImmediate(() => {
      for (const tool of loaders) {
        try {
          tool.whenReady?.()?.catch(() => undefined);
        } catch {
          // A tool that cannot prepare is waited for (and fails closed) when it is called.
        }
      }
    }),
  );
}
