// `rule_files`: the rules of `.claude/rules/` (src/config/rule-files.ts). Those without `paths`
// are attached before the first request; those with `paths` once the model reads or writes a file
// they match (relative to the project), each once, and all of them again after a compaction. A
// deny rule on a rule file keeps it out, as it keeps Read out.
import { join, relative, sep } from "node:path";
import picomatch from "picomatch";
import { loadRuleFiles, type RuleFile } from "../../config/rule-files.js";
import { reportInstructionsLoaded } from "../../hooks/instructions-loaded.js";
import type { AttachmentItem, AttachmentSource } from "../../tool/types.js";
import { readableMemoryFiles } from "../memory-access.js";

export function ruleFilesSource(): AttachmentSource {
  let pending: Array<{ rule: RuleFile; matches: (path: string) => boolean }> | undefined;
  const attached: RuleFile[] = [];
  const seen = new Set<string>();
  return {
    kind: "rule_files",
    async collect({ context }) {
      const cwd = context.options.cwd;
      if (!pending) {
        pending = loadRuleFiles(cwd).map((rule) => ({
          rule,
          matches: rule.paths ? picomatch(rule.paths, { dot: true }) : () => true,
        }));
      }
      if (pending.length === 0) return undefined;
      const touched = context.readFileState
        .keys()
        .filter((path) => !seen.has(path))
        .map((path) => {
          seen.add(path);
          return relative(cwd, path).split(sep).join("/");
        })
        .filter((rel) => !rel.startsWith(".."));
      const due = pending.filter(({ rule, matches }) => !rule.paths || touched.some(matches));
      if (due.length === 0) return undefined;
      pending = pending.filter((entry) => !due.includes(entry));
      const state = context.getAppState();
      const allowed = (await readableMemoryFiles(
        due.map((entry) => entry.rule),
        state.toolPermissionContext,
        context.options.tools,
      )) as RuleFile[];
      attached.push(...allowed);
      const trigger = touched.find((rel) => due.some(({ rule, matches }) => rule.paths && matches(rel)));
      for (const rule of allowed)
        reportInstructionsLoaded(
          state.hooks,
          [rule],
          rule.paths ? "path_glob_match" : "session_start",
          rule.paths && trigger !== undefined ? join(cwd, trigger) : undefined,
        );
      return allowed.map((rule): AttachmentItem => ({ text: render(rule) }));
    },
    afterCompaction({ context }) {
      if (attached.length === 0) return undefined;
      reportInstructionsLoaded(context.getAppState().hooks, attached, "compact");
      return attached.map(render).join("\n\n");
    },
  };
}

function render(rule: RuleFile): string {
  const cut = rule.truncated ? "\n[the file is longer; the rest was cut]" : "";
  const scope = rule.paths ? `rules for files matching ${rule.paths.join(", ")}` : "rules for this project";
  return `Contents of ${rule.path} (${scope}; follow them like the memory files):\n\n${rule.content}${cut}`;
}
