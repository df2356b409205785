// WARDEN_TRACE_PHASES=1 records named moments of a session (a request written to the socket, the
// first event and the end of a response, its first tool call, each step of a warm-up) and prints
// them on stderr when the process exits, one line each:
//   warden-phase NAME MONOTONIC_US CPU_US
// MONOTONIC_US is CLOCK_MONOTONIC in microseconds, the clock of a `--cpu-prof` profile's
// timestamps, so a profile can be cut at these moments; CPU_US is the process's user + system CPU
// time so far, which a loaded machine skews far less than wall time. Kept in memory until exit:
// writing to stderr as they happen would cost the very moments being measured.
const marks: string[] | undefined = process.env.WARDEN_TRACE_PHASES === "1" ? [] : undefined;

if (marks) {
  process.once("exit", () => {
    if (marks.length > 0) process.stderr.write(`${marks.join("\n")}\n`);
  });
}

export function tracePhase(name: string): void {
  if (!marks) return;
  const cpu = process.cpuUsage();
  marks.push(`warden-phase ${name} ${process.hrtime.bigint() / 1000n} ${cpu.user + cpu.system}`);
}
