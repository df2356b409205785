import type { Provider } from "../providers/types.js";

/**
 * WARDEN_TRACE_TIMING=1 prints, on stderr, the milliseconds from process start to the first model
 * request (performance.now() counts from process start). The benchmark reads this line.
 */
export function traceFirstRequest(provider: Provider, env: NodeJS.ProcessEnv = process.env): Provider {
  if (!env.WARDEN_TRACE_TIMING) return provider;
  let first = true;
  return {
    name: provider.name,
    stream(request) {
      if (first) {
        first = false;
        process.stderr.write(`warden-timing first_request_ms=${performance.now().toFixed(2)}\n`);
      }
      return provider.stream(request);
    },
  };
}
