// The session's subagent host: a small object in every call's context whose first use loads the
// runner (./run.ts) with a dynamic import, so a session that never starts an agent never loads it.
// Its teammates (./teammates.ts) load their runner on the first spawn in the same way.
import type { SubagentHost } from "../../tool/types.js";
import type { SubagentDeps } from "./deps.js";
import { TeammateRegistry } from "./teammates.js";

export function createSubagentHost(deps: () => SubagentDeps): SubagentHost {
  return {
    async run(request, parent) {
      const { runSubagent } = await import("./run.js");
      return runSubagent(deps(), request, parent);
    },
    teams: new TeammateRegistry(deps),
  };
}
