// What the sandbox network-proxy tests need on the machine (bubblewrap that works, socat, curl),
// checked once: the reason a suite is skipped, or undefined when all are there. CI installs them
// (scripts/setup.sh), so there the suites always run.
import { execFileSync } from "node:child_process";
import { findSocat, probeBubblewrap } from "../../src/shell/sandbox/index.js";

function hasCurl(): boolean {
  try {
    execFileSync("curl", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export async function proxyTestSkipReason(): Promise<string | undefined> {
  const availability = await probeBubblewrap();
  if (!availability.available) return availability.reason;
  if (!findSocat()) return "socat is not installed (scripts/setup.sh installs it)";
  if (!hasCurl()) return "curl is not installed";
  return undefined;
}
