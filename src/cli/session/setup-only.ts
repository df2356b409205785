// `warden --init-only`: the Setup hooks (trigger init) run and the command exits, with no session:
// no model is needed, no MCP server starts, no SessionStart or SessionEnd hook runs. For CI jobs
// and scripts that prepare a repository the way its settings say.
import { randomUUID } from "node:crypto";
import type { SessionConfig } from "../flags/session-config.js";
import { sessionPermissionsInstallingPlugins } from "./permissions.js";

/** Exit code 0 when every Setup hook succeeded (or none is configured), 1 when one failed. */
export async function runSetupOnly(
  config: SessionConfig,
  io: { out: (text: string) => void; err: (text: string) => void },
): Promise<number> {
  const warn = (message: string) => io.err(`warden: warning: ${message}\n`);
  const permissions = await sessionPermissionsInstallingPlugins(config, (line) => io.err(`warden: ${line}\n`), warn);
  const hooks = permissions.hooks;
  if (!hooks?.has("Setup")) {
    io.err("warden: --init-only: no Setup hooks are configured\n");
    return 0;
  }
  hooks.bindSession({ sessionId: config.sessionId ?? randomUUID() });
  const result = await hooks.setup("init");
  // Async hooks finish before the process does: nothing else would wait for them.
  await hooks.backgroundSettled();
  for (const error of result.errors) warn(error);
  // What would have reached the model is shown, so a person running the set-up sees it.
  for (const text of result.additionalContext) io.out(`${text}\n`);
  return result.errors.length > 0 ? 1 : 0;
}
