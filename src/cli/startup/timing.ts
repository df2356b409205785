import type { Provider } from "../../providers/types.js";

/**
 * WARDEN_TRACE_TIMING=1 prints, on stderr, the milliseconds from process start to the first model
 * request (performance.now() counts from process start) and the CPU time used until then. The
 * benchmark reads this line.
 */
export function traceFirstRequest(provider: Provider, env: NodeJS.ProcessEnv = process.env): Provider {
  if (!env.WARDEN_TRACE_TIMING) return provider;
  let first = true;
  return {
    name: provider.name,
    stream(request) {
      if (first) {
        first = false;
        // CPU time beside wall time: on a loaded machine the process waits for a core, and CPU
        // time still shows what start-up itself costs.
        const cpu = process.cpuUsage();
        const cpuMs = (cpu.user + cpu.system) / 1000;
        process.stderr.write(
          `warden-timing first_request_ms=${performance.now().toFixed(2)} cpu_ms=${cpuMs.toFixed(2)}\n`,
        );
      }
      return provider.stream(request);
    },
  };
}
