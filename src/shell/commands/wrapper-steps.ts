// One step of peeling a wrapper: given a wrapper's words, where the command it runs starts (and
// whether it runs it unchanged), the script it hands a shell, or why that cannot be known. The
// table of wrappers is here; wrappers.ts walks it.
import { type Field, type OptionSpec, parseArgs } from "../words/index.js";
import { isSafeEnvVar } from "./env-vars.js";

export type Step =
  | { kind: "inner"; index: number; transparent: boolean }
  | { kind: "script"; script: Field; rest?: number }
  | { kind: "opaque"; reason: string }
  | { kind: "none" };

export const STDIN_REASON = "the shell runs whatever arrives on stdin";

export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox-sh"]);

export function afterOptions(
  words: Field[],
  at: number,
  spec: OptionSpec,
  transparent: boolean,
  extraOperands = 0,
): Step {
  const parsed = parseArgs(words, at + 1, { ...spec, stopAtOperand: true });
  const index = parsed.firstOperandIndex + extraOperands;
  if (index >= words.length) return { kind: "none" };
  return { kind: "inner", index, transparent };
}

export function shellStep(words: Field[], at: number): Step {
  let runsString = false;
  let readsStdin = false;
  for (let i = at + 1; i < words.length; i += 1) {
    const word = words[i] as Field;
    if (!word.literal) return { kind: "opaque", reason: "a shell is given an argument known only at run time" };
    const text = word.value;
    if (text === "--" || text === "-") {
      const operand = words[i + 1];
      return shellOperand(operand, runsString, readsStdin);
    }
    if (
      text === "-o" ||
      text === "+o" ||
      text === "-O" ||
      text === "+O" ||
      text === "--rcfile" ||
      text === "--init-file"
    ) {
      i += 1;
      continue;
    }
    if (/^[-+][a-zA-Z]+$/.test(text)) {
      if (text.startsWith("-") && text.includes("c")) runsString = true;
      if (text.startsWith("-") && text.includes("s")) readsStdin = true;
      continue;
    }
    if (text.startsWith("--")) continue;
    return shellOperand(word, runsString, readsStdin);
  }
  return runsString ? { kind: "opaque", reason: "sh -c without a script" } : { kind: "opaque", reason: STDIN_REASON };
}

function shellOperand(operand: Field | undefined, runsString: boolean, readsStdin: boolean): Step {
  if (runsString)
    return operand ? { kind: "script", script: operand } : { kind: "opaque", reason: "sh -c without a script" };
  if (readsStdin || !operand) return { kind: "opaque", reason: STDIN_REASON };
  return { kind: "opaque", reason: `the shell runs the script file ${operand.value}` };
}

function envStep(words: Field[], at: number): Step {
  let i = at + 1;
  let transparent = true;
  while (i < words.length) {
    const word = words[i] as Field;
    const text = word.value;
    if (
      text === "-i" ||
      text === "-" ||
      text === "--ignore-environment" ||
      text === "-0" ||
      text === "--null" ||
      text === "-v"
    ) {
      transparent = false;
      i += 1;
    } else if (text === "-u" || text === "-C" || text === "--unset" || text === "--chdir") {
      transparent = false;
      i += 2;
    } else if (
      text === "-S" ||
      text === "--split-string" ||
      text.startsWith("--split-string=") ||
      text.startsWith("-S")
    ) {
      // The string is the command whether it is the next word or glued on (`-S'rm x'`,
      // `--split-string=rm x`): deny rules must meet it in every spelling.
      const script =
        text === "-S" || text === "--split-string"
          ? words[i + 1]
          : { ...word, value: text.startsWith("-S") ? text.slice(2) : text.slice("--split-string=".length) };
      if (script && script.value !== "") return { kind: "script", script };
      return { kind: "opaque", reason: "env -S splits a string into a command" };
    } else if (
      text.startsWith("-u") ||
      text.startsWith("--unset=") ||
      text.startsWith("-C") ||
      text.startsWith("--chdir=")
    ) {
      transparent = false;
      i += 1;
    } else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) {
      // `env NODE_ENV=test cmd` is as harmless as the prefix form; anything else changes what runs.
      if (!isSafeEnvVar(text.slice(0, text.indexOf("=")))) transparent = false;
      i += 1;
    } else if (text === "--") {
      i += 1;
      break;
    } else break;
  }
  if (i >= words.length) return { kind: "none" };
  return { kind: "inner", index: i, transparent };
}

function xargsStep(words: Field[], at: number): Step {
  const parsed = parseArgs(words, at + 1, {
    shortWithValue: "adEILnPs",
    longWithValue: ["arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"],
    stopAtOperand: true,
  });
  if (parsed.firstOperandIndex >= words.length) return { kind: "none" };
  return { kind: "inner", index: parsed.firstOperandIndex, transparent: false };
}

function timeStep(words: Field[], at: number): Step {
  const parsed = parseArgs(words, at + 1, {
    shortWithValue: "of",
    longWithValue: ["output", "format"],
    stopAtOperand: true,
  });
  if (parsed.firstOperandIndex >= words.length) return { kind: "none" };
  const writes = parsed.options.some((o) => o.flag === "-o" || o.flag.startsWith("--o"));
  return { kind: "inner", index: parsed.firstOperandIndex, transparent: !writes };
}

function commandStep(words: Field[], at: number): Step {
  const parsed = parseArgs(words, at + 1, { stopAtOperand: true });
  // `command -v name` only looks a name up; it runs nothing.
  if (parsed.options.some((o) => o.flag === "-v" || o.flag === "-V")) return { kind: "none" };
  if (parsed.firstOperandIndex >= words.length) return { kind: "none" };
  return { kind: "inner", index: parsed.firstOperandIndex, transparent: true };
}

function flockStep(words: Field[], at: number): Step {
  const parsed = parseArgs(words, at + 1, {
    shortWithValue: "wEc",
    longWithValue: ["timeout", "conflict-exit-code", "command"],
    stopAtOperand: true,
  });
  const command = parsed.options.find((o) => o.flag === "-c" || o.flag.startsWith("--comm"));
  if (command && typeof command.value === "object") return { kind: "script", script: command.value };
  const index = parsed.firstOperandIndex + 1;
  if (index >= words.length) return { kind: "none" };
  return { kind: "inner", index, transparent: false };
}

function scriptStep(words: Field[], at: number): Step {
  const parsed = parseArgs(words, at + 1, {
    shortWithValue: "cEoTIOBm",
    longWithValue: ["command", "echo", "output-limit", "log-timing", "log-in", "log-out", "log-io", "logging-format"],
  });
  const command = parsed.options.find((o) => o.flag === "-c" || o.flag.startsWith("--comm"));
  if (command && typeof command.value === "object") return { kind: "script", script: command.value };
  return { kind: "opaque", reason: "script runs an interactive shell" };
}

function sudoStep(words: Field[], at: number): Step {
  const parsed = parseArgs(words, at + 1, {
    shortWithValue: "ugpCDrtUTh",
    longWithValue: [
      "user",
      "group",
      "prompt",
      "close-from",
      "chdir",
      "role",
      "type",
      "other-user",
      "command-timeout",
      "host",
    ],
    stopAtOperand: true,
  });
  let index = parsed.firstOperandIndex;
  while (index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index]?.value ?? "")) index += 1;
  if (index >= words.length) return { kind: "none" };
  return { kind: "inner", index, transparent: false };
}

function suStep(words: Field[], at: number): Step {
  const parsed = parseArgs(words, at + 1, {
    shortWithValue: "cgGsw",
    longWithValue: ["command", "group", "supp-group", "shell", "whitelist-environment", "session-command"],
  });
  const command = parsed.options.find(
    (o) => o.flag === "-c" || o.flag.startsWith("--comm") || o.flag.startsWith("--sess"),
  );
  if (command && typeof command.value === "object") return { kind: "script", script: command.value };
  return { kind: "opaque", reason: "su starts a shell" };
}

function evalStep(words: Field[], at: number): Step {
  const parts = words.slice(at + 1);
  if (parts.length === 0) return { kind: "none" };
  const literal = parts.every((w) => w.literal);
  const value = parts.map((w) => w.value).join(" ");
  return { kind: "script", script: { value, literal, glob: false, quoted: true, source: value } };
}

function watchStep(words: Field[], at: number): Step {
  const parsed = parseArgs(words, at + 1, {
    shortWithValue: "dngq",
    longWithValue: ["interval", "differences", "equexit", "chgexit", "differences"],
    stopAtOperand: true,
  });
  const parts = words.slice(parsed.firstOperandIndex);
  if (parts.length === 0) return { kind: "none" };
  const value = parts.map((w) => w.value).join(" ");
  return {
    kind: "script",
    script: { value, literal: parts.every((w) => w.literal), glob: false, quoted: true, source: value },
  };
}

/** `source /dev/stdin` (or `.`) runs what arrives on stdin as a shell would; a file is hidden code. */
function sourceStep(words: Field[], at: number): Step {
  const file = words[at + 1]?.value === "--" ? words[at + 2] : words[at + 1];
  if (file?.literal && /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/.test(file.value))
    return { kind: "opaque", reason: STDIN_REASON };
  return { kind: "none" };
}

/** `trap 'cmd' EXIT` runs its first operand later, as a script. */
function trapStep(words: Field[], at: number): Step {
  const parsed = parseArgs(words, at + 1, { stopAtOperand: true });
  const script = words[parsed.firstOperandIndex];
  if (!script || parsed.options.some((o) => o.flag === "-p" || o.flag === "-l")) return { kind: "none" };
  return { kind: "script", script };
}

export const WRAPPERS: Record<string, (words: Field[], at: number) => Step> = {
  timeout: (w, at) => afterOptions(w, at, { shortWithValue: "sk", longWithValue: ["signal", "kill-after"] }, true, 1),
  nice: (w, at) => {
    const next = w[at + 1]?.value ?? "";
    if (/^-\d+$/.test(next)) return afterOptions(w, at + 1, {}, true);
    return afterOptions(w, at, { shortWithValue: "n", longWithValue: ["adjustment"] }, true);
  },
  nohup: (w, at) => afterOptions(w, at, {}, true),
  time: timeStep,
  command: commandStep,
  builtin: (w, at) => afterOptions(w, at, {}, true),
  exec: (w, at) => afterOptions(w, at, { shortWithValue: "a" }, false),
  noglob: (w, at) => afterOptions(w, at, {}, true),
  nocorrect: (w, at) => afterOptions(w, at, {}, true),
  stdbuf: (w, at) => afterOptions(w, at, { shortWithValue: "ioe", longWithValue: ["input", "output", "error"] }, true),
  ionice: (w, at) => afterOptions(w, at, { shortWithValue: "cnP", longWithValue: ["class", "classdata"] }, true),
  setsid: (w, at) => afterOptions(w, at, {}, false),
  unbuffer: (w, at) => afterOptions(w, at, {}, false),
  taskset: (w, at) => afterOptions(w, at, {}, false, 1),
  chrt: (w, at) => afterOptions(w, at, { shortWithValue: "T" }, false, 1),
  env: envStep,
  xargs: xargsStep,
  flock: flockStep,
  script: scriptStep,
  sudo: sudoStep,
  doas: (w, at) => afterOptions(w, at, { shortWithValue: "uC" }, false),
  pkexec: (w, at) => afterOptions(w, at, { longWithValue: ["user"] }, false),
  busybox: (w, at) => afterOptions(w, at, {}, false),
  su: suStep,
  eval: evalStep,
  watch: watchStep,
  trap: trapStep,
  source: sourceStep,
  ".": sourceStep,
};

/**
 * Less common programs that run the command after their options (tracers, namespaces, sandboxes,
 * proxies, job runners). Their options are not modelled one by one: the first operand is taken as
 * the command, and for deny rules every later word is tried as a command start as well.
 */
export const LOOSE_WRAPPERS: Record<string, number> = {
  parallel: 0,
  strace: 0,
  ltrace: 0,
  valgrind: 0,
  chroot: 1,
  runuser: 0,
  unshare: 0,
  nsenter: 0,
  "systemd-run": 0,
  firejail: 0,
  proxychains: 0,
  proxychains4: 0,
  torsocks: 0,
  faketime: 1,
  "xvfb-run": 0,
  "dbus-launch": 0,
  catchsegv: 0,
  cpulimit: 0,
  sem: 0,
};
