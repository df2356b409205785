// What a fleet worker's policy (src/fleet/worker-policy.ts) needs to know of rules and models,
// from the layers that own them: which rule names govern file reads, which tool runs commands,
// which model specs read a file. Traits, not lists: a new read tool joins by its fileAccess.
import type { PolicyJudges } from "../fleet/worker-policy.js";
import { parseRule, READ_RULE_NAME, WRITE_RULE_NAME } from "../permissions/index.js";
import { modelSpecFile } from "../providers/resolve.js";
import { BashTool } from "../tools/bash/tool.js";
import { projectTools } from "../tools/registry.js";

/** A path pattern that leaves the folder it is read from: absolute, home, or through `..`. */
function reachesOutside(pattern: string): boolean {
  return (
    /^[/\\~]/.test(pattern) ||
    /(^|[/\\])\.\.([/\\]|$)/.test(pattern) ||
    /^[A-Za-z]:/.test(pattern) ||
    pattern.includes("$")
  );
}

export function fleetPolicyJudges(): PolicyJudges {
  const tools = projectTools();
  const namesOf = (kind: "read" | "write") =>
    tools.filter((tool) => tool.fileAccess === kind).flatMap((tool) => [tool.name, ...(tool.aliases ?? [])]);
  const readNames = new Set([READ_RULE_NAME, ...namesOf("read")]);
  const fileNames = new Set([...readNames, WRITE_RULE_NAME, ...namesOf("write")]);
  const shellNames = new Set([BashTool.name, ...(BashTool.aliases ?? [])]);
  return {
    modelFile: modelSpecFile,
    ruleReach(text) {
      const parsed = parseRule(text);
      if (!parsed.ok) return { verdict: "refuse", why: `not a rule (${parsed.error})` };
      const { toolName, ruleContent } = parsed.value;
      if (ruleContent === undefined) {
        if (readNames.has(toolName)) {
          // Inside its workspace a job reads without any rule: the whole-tool rule adds only the rest of the disk.
          return {
            verdict: "drop",
            why: `${toolName} for every path would read any file of the worker; the job reads its workspace without it`,
          };
        }
        if (shellNames.has(toolName)) {
          return {
            verdict: "refuse",
            why: `${toolName} for every command runs anything as the worker's user; name the commands (e.g. "${toolName}(npm test:*)")`,
          };
        }
        return { verdict: "ok" };
      }
      if (fileNames.has(toolName) && reachesOutside(ruleContent)) {
        return { verdict: "refuse", why: "it names files outside the job's workspace" };
      }
      return { verdict: "ok" };
    },
  };
}
