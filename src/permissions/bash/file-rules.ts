// The file tools' path rules, applied to the files a shell command visibly reads and writes: a
// `Read(./config/credentials.yml)` deny stops `cat`, `head`, `grep` and `git diff --no-index` on
// that file as it stops Read, and an `Edit(...)` deny stops a redirection or `cp` into it. A
// command that reads every file under a folder (`grep -r`, `rg`, `git grep`, a glob) cannot be
// checked file by file: when a read rule reaches into that folder it asks. So does a git command
// that prints the repository's files from its tree or history without naming them (`git diff`,
// `git log -p`, `git show REV`), when a read rule covers a file of the repository, present or not.
import { existsSync } from "node:fs";
import { isDirectory } from "../../fs/path-kind.js";
import { pathsToCheck } from "../../fs/real-path.js";
import type { ScriptAnalysis } from "../../shell/analysis/index.js";
import {
  codeRunnerReason,
  hiddenCodeOf,
  resolveWordPath,
  stringLiterals,
  writeTargetsOf,
} from "../../shell/commands/index.js";
import { classifyReadOnly } from "../../shell/read-only/index.js";
import { isOutputRedirect } from "../../shell/validators/index.js";
import type { Field } from "../../shell/words/index.js";
import type { PermissionResult, PermissionRule, ToolPermissionContext } from "../../tool/permission-types.js";
import { repositoryAt } from "../filesystem/git-repository.js";
import { READ_RULE_NAME, WRITE_RULE_NAME } from "../filesystem/index.js";
import { describeRule, findMatchingPathRule, findPathRuleInside } from "../rules/index.js";
import { globMatches } from "./glob-matches.js";
import { linkTargetsUnder } from "./linked-files.js";
import { hereResolved, homeResolved } from "./path-candidates.js";
import { readTargetsOf } from "./read-targets.js";

interface Access {
  path: string;
  verb: "read" | "write";
  /** Every file under the path is read (a recursive search, a glob). */
  whole: boolean;
  /**
   * Files are read from the repository's history too: a rule's file counts even when it is no
   * longer in the working tree.
   */
  history?: boolean;
  /** Why the files are named only at run time (`cat "$f"`, xargs): any file may be among them. */
  unknown?: string;
}

function literalField(value: string): Field {
  return { value, literal: true, glob: false, quoted: true, source: value };
}

/** Deny or ask from the file rules for what the command reads and writes, or undefined. */
export function fileRuleDecision(
  analysis: ScriptAnalysis,
  context: ToolPermissionContext,
): PermissionResult | undefined {
  const { deny, ask } = context.rules;
  if (!hasPathRules(deny) && !hasPathRules(ask)) return undefined;
  const root = context.workingDirectories[0] ?? "/";
  const accesses = accessesOf(analysis);
  let asked: PermissionResult | undefined;
  for (const access of accesses) {
    const names = [access.verb === "read" ? READ_RULE_NAME : WRITE_RULE_NAME];
    const paths = pathsToCheck(access.path);
    const denied = findMatchingPathRule(deny, names, paths, root);
    if (denied) {
      return {
        behavior: "deny",
        message: `Permission to ${access.verb} ${access.path} has been denied by ${describeRule(denied)} (the command ${access.verb}s it).`,
        decisionReason: { type: "rule", rule: denied },
      };
    }
    if (asked) continue;
    const askRule = findMatchingPathRule(ask, names, paths, root);
    if (askRule)
      asked = ruleAsk(
        `The command would ${access.verb} ${access.path}; ${describeRule(askRule)} says to ask.`,
        askRule,
      );
    else if (access.whole) {
      const exists = access.history ? () => true : existsSync;
      const inside =
        findPathRuleInside(deny, names, paths, root, exists) ??
        findPathRuleInside(ask, names, paths, root, exists) ??
        linkedRule(access, names, deny, ask, root);
      if (inside) {
        const what = access.history
          ? `prints files of the repository at ${access.path} (its working tree or its history) without naming them`
          : (access.unknown ?? `reads every file under ${access.path}`);
        const reason = access.unknown
          ? `the command ${what}, and ${describeRule(inside)} is in force`
          : `the command ${what}, and ${describeRule(inside)} covers a file there`;
        asked = {
          behavior: "ask",
          message: `This command needs a human to look at it: ${reason}`,
          decisionReason: { type: "safetyCheck", reason },
        };
      }
    }
  }
  return asked;
}

/** A rule covering where a symbolic link inside a folder read whole leads (the folder itself is clear). */
function linkedRule(
  access: Access,
  names: string[],
  deny: readonly PermissionRule[],
  ask: readonly PermissionRule[],
  root: string,
): PermissionRule | undefined {
  if (access.history || access.unknown || !isDirectory(access.path)) return undefined;
  for (const target of linkTargetsUnder(access.path)) {
    const rule = findMatchingPathRule(deny, names, [target], root) ?? findMatchingPathRule(ask, names, [target], root);
    if (rule) return rule;
  }
  return undefined;
}

function hasPathRules(rules: readonly PermissionRule[]): boolean {
  return rules.some(
    (r) =>
      r.value.ruleContent !== undefined &&
      (r.value.toolName === READ_RULE_NAME || r.value.toolName === WRITE_RULE_NAME),
  );
}

function ruleAsk(message: string, rule: PermissionRule): PermissionResult {
  return { behavior: "ask", message, decisionReason: { type: "rule", rule } };
}

function accessesOf(analysis: ScriptAnalysis): Access[] {
  const accesses: Access[] = [];
  /** `unplaced`: what to do with a word whose path is known only at run time. */
  const add = (
    word: Field,
    cwd: string | undefined,
    verb: Access["verb"],
    whole: boolean | "if-folder",
    unplaced: "unknown" | "skip" = verb === "read" ? "unknown" : "skip",
  ) => {
    // A deny or ask rule on `~/.ssh/**` holds for `$HOME/.ssh/id_rsa` too (see path-candidates.ts),
    // and for `$PWD/.env` and `~+/.env` as for `.env`.
    const known = homeResolved(hereResolved(word, cwd) ?? word);
    const path = known === undefined ? undefined : resolveWordPath(known, cwd);
    if (path === undefined || known === undefined) {
      // A reader handed a name known only at run time may be reading the denied file.
      if (unplaced === "unknown")
        accesses.push({
          path: "/",
          verb,
          whole: true,
          unknown: `reads ${word.source}, a path known only when it runs`,
        });
      return;
    }
    const folderWhole = whole === "if-folder" ? !known.glob && isDirectory(path) : whole;
    accesses.push({ path, verb, whole: folderWhole || known.glob });
    // The files a glob expands to now, each checked as named: `cat secr*/*` reads secrets/key.
    if (known.glob && cwd !== undefined) {
      for (const match of globMatches(known.value, cwd) ?? []) accesses.push({ path: match, verb, whole: folderWhole });
    }
  };
  for (const redirect of analysis.structure.redirects) {
    if (!redirect.target) continue;
    if (isOutputRedirect(redirect.operator, redirect.target.value)) add(redirect.target, redirect.cwd, "write", false);
    else if (redirect.operator === "<") add(redirect.target, redirect.cwd, "read", false);
  }
  for (const part of analysis.parts) {
    const { cwd } = part.command;
    for (const view of part.unwrapping.views) {
      for (const target of writeTargetsOf(view.words)) add(target, cwd, "write", false);
      const reads = readTargetsOf(view.words, classifyReadOnly(view.words));
      for (const word of reads.files) add(word, cwd, "read", false);
      for (const word of reads.folders) add(word, cwd, "read", true);
      // A command outside the read-only tables may read any file or folder its words name.
      for (const word of reads.operands ?? []) add(word, cwd, "read", "if-folder", "skip");
      if (reads.searchesHere && cwd !== undefined) accesses.push({ path: cwd, verb: "read", whole: true });
      // Names known only when it runs: any file may be read (the root stands for all of them).
      if (reads.unknown || (reads.searchesHere && cwd === undefined))
        accesses.push({
          path: "/",
          verb: "read",
          whole: true,
          unknown: "reads files whose names are known only when it runs",
        });
      // An inline program (`python3 -c 'open(".env")'`): the paths its strings spell are checked,
      // and since what else it reads cannot be seen, a read rule in force makes it ask.
      const code = part.hidden === undefined ? undefined : hiddenCodeOf(view.words);
      for (const script of code?.denyScripts ?? [])
        for (const literal of [script, ...stringLiterals(script)])
          add(literalField(literal.trim()), cwd, "read", false, "skip");
      if (reads.repository) accesses.push(repositoryAccess(reads.repository.directories, cwd));
    }
    // A program chosen by the arguments (`python3 tool.py`, `npx pkg`) may read any file too.
    const deepest = part.unwrapping.views.at(-1)?.words ?? [];
    const runs =
      part.hidden ?? (classifyReadOnly(deepest).readOnly ? undefined : codeRunnerReason(deepest.map((w) => w.value)));
    if (runs !== undefined)
      accesses.push({ path: "/", verb: "read", whole: true, unknown: `${runs}, which may read any file` });
  }
  return accesses;
}

/**
 * The repository a git command reads from: its `-C` folders or the shell's, walked up to the top.
 * A folder the text does not pin (a variable) stands for the whole disk, so any rule asks.
 */
function repositoryAccess(directories: readonly Field[], cwd: string | undefined): Access {
  let start = cwd;
  for (const directory of directories) start = start === undefined ? undefined : resolveWordPath(directory, start);
  const path = start === undefined ? "/" : (repositoryAt(start)?.top ?? start);
  return { path, verb: "read", whole: true, history: true };
}
