// `warden permissions check TOOL 'JSON_INPUT' [flags]` prints the permission decision for one
// call as one JSON line; with --jsonl it reads one request per line from stdin and prints one
// decision line per request, in order. It never runs a tool.
import { createInterface } from "node:readline";
import { type CheckRequest, createPermissionChecker } from "../../permissions/engine/index.js";
import type { PermissionCliOptions } from "../../permissions/settings/index.js";
import { loadSessionPermissions, type SessionPermissions } from "../../permissions/settings/index.js";
import { type CommandIo, processIo } from "./command-io.js";
import { contextSummary, contextText } from "./permissions-list.js";

const USAGE = `Usage: warden permissions check TOOL 'JSON_INPUT' [options]
       warden permissions check --jsonl [options] < requests.jsonl
       warden permissions list [options] [--json]

check prints {"behavior":"allow"|"ask"|"deny","reason":...,"rule":...,"source":...} per request; an
ask also has "suggestions" (what a prompt would offer to save) and "suggestedRules" (those rules).
Nothing is ever run. list prints the mode, working directories and every rule in force, with
where it came from (highest precedence first).

Options:
  --allowedTools <rules...>      rules to allow (as for a session)
  --disallowedTools <rules...>   rules to deny
  --permission-mode <mode>       default, acceptEdits, plan, bypassPermissions, dontAsk, auto
  --dangerously-skip-permissions the same as --permission-mode bypassPermissions
  --add-dir <dirs...>            more working directories
  --cwd <dir>                    whose settings are in force (default: the current directory)
  --settings <file-or-json>      an extra settings file
  --trust-project                apply the folder's own settings whole, as a session with it would
  --json                         (list) print one JSON object instead of text
  --jsonl                        read requests from stdin, one JSON object per line:
                                 {"tool":"Bash","input":{...},"rules":{"allow":[],"deny":[],"ask":[]},"mode":"default"}
`;

interface CheckArgs {
  cli: PermissionCliOptions;
  trustProject: boolean;
  cwd: string;
  settings: string[];
  jsonl: boolean;
  json: boolean;
  positionals: string[];
}

class UsageError extends Error {}

function parseArgs(argv: readonly string[], cwd: string): CheckArgs {
  const args: CheckArgs = {
    cli: {},
    trustProject: false,
    cwd,
    settings: [],
    jsonl: false,
    json: false,
    positionals: [],
  };
  const allowed: string[] = [];
  const disallowed: string[] = [];
  const addDirs: string[] = [];
  // `--name value` and `--name=value` alike (the Agent SDK and scripts write the second).
  let inline: string | undefined;
  const takeList = (i: number, into: string[], name: string): number => {
    if (inline !== undefined) {
      into.push(inline);
      return i;
    }
    let j = i;
    while (j + 1 < argv.length && !argv[j + 1]!.startsWith("--")) into.push(argv[++j]!);
    if (j === i) throw new UsageError(`${name} needs a value`);
    return j;
  };
  const takeOne = (i: number, name: string): [string, number] => {
    if (inline !== undefined) return [inline, i];
    const value = argv[i + 1];
    if (value === undefined) throw new UsageError(`${name} needs a value`);
    return [value, i + 1];
  };
  const flag = (name: string): true => {
    if (inline !== undefined) throw new UsageError(`${name} takes no value`);
    return true;
  };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    const eq = raw.startsWith("--") ? raw.indexOf("=") : -1;
    const arg = eq > 0 ? raw.slice(0, eq) : raw;
    inline = eq > 0 ? raw.slice(eq + 1) : undefined;
    let value: string;
    switch (arg) {
      case "--allowedTools":
      case "--allowed-tools":
        i = takeList(i, allowed, arg);
        break;
      case "--disallowedTools":
      case "--disallowed-tools":
        i = takeList(i, disallowed, arg);
        break;
      case "--add-dir":
        i = takeList(i, addDirs, arg);
        break;
      case "--permission-mode":
        [value, i] = takeOne(i, arg);
        args.cli.permissionMode = value;
        break;
      case "--dangerously-skip-permissions":
        args.cli.dangerouslySkipPermissions = flag(arg);
        break;
      case "--cwd":
        [args.cwd, i] = takeOne(i, arg);
        break;
      case "--settings":
        [value, i] = takeOne(i, arg);
        args.settings.push(value);
        break;
      case "--trust-project":
        args.trustProject = flag(arg);
        break;
      case "--jsonl":
        args.jsonl = flag(arg);
        break;
      case "--json":
        args.json = flag(arg);
        break;
      default:
        if (arg.startsWith("--")) throw new UsageError(`unknown option ${arg}`);
        args.positionals.push(raw);
    }
  }
  args.cli.allowedTools = allowed;
  args.cli.disallowedTools = disallowed;
  args.cli.addDirs = addDirs;
  return args;
}

/** The settings in force for these flags, their warnings and trust notice said on stderr. */
function loadPermissionsFor(args: CheckArgs, io: CommandIo): SessionPermissions {
  const setup = loadSessionPermissions({
    cwd: args.cwd,
    cli: args.cli,
    extraSettings: args.settings,
    trustProject: args.trustProject,
  });
  for (const warning of setup.warnings) io.stderr.write(`warden: warning: ${warning}\n`);
  if (setup.trustNotice) io.stderr.write(`warden: ${setup.trustNotice}\n`);
  return setup;
}

export async function run(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand === undefined || subcommand === "--help" || subcommand === "-h") {
    io.stdout.write(USAGE);
    return subcommand === undefined ? 2 : 0;
  }
  if (subcommand !== "check" && subcommand !== "list") {
    io.stderr.write(`warden permissions: unknown subcommand "${subcommand}"\n\n${USAGE}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout.write(USAGE);
    return 0;
  }
  let args: CheckArgs;
  try {
    args = parseArgs(rest, io.cwd);
    if (subcommand === "list") {
      if (args.positionals.length > 0 || args.jsonl) throw new UsageError("list takes only options");
      const setup = loadPermissionsFor(args, io);
      io.stdout.write(
        args.json
          ? `${JSON.stringify(contextSummary(setup.permissionContext))}\n`
          : contextText(setup.permissionContext),
      );
      return 0;
    }
    if (args.jsonl ? args.positionals.length > 0 : args.positionals.length !== 2) {
      throw new UsageError(args.jsonl ? "--jsonl takes no TOOL or JSON_INPUT" : "expected TOOL and 'JSON_INPUT'");
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`warden permissions ${subcommand}: ${error.message}\n\n${USAGE}`);
    return 2;
  }

  // Settings and flags are read once; each request only adds its own rules and mode.
  const setup = loadPermissionsFor(args, io);
  const { checkableTools } = await import("../../tools/checkable.js");
  const { webToolOptions } = await import("../session/web-tools.js");
  const { setUpSkills } = await import("../session/skills-setup.js");
  // Every tool a session could offer is checkable: WebSearch as if the provider searched by itself,
  // Skill over this folder's skills, the MCP resource tools.
  const web = webToolOptions(setup.settings, "anthropic");
  const skills = (await setUpSkills(args.cwd, setup.settings, () => undefined)).catalog;
  const checker = createPermissionChecker(
    checkableTools({ ...web, skills }),
    setup.permissionContext,
    args.cwd,
    setup.appState,
  );

  if (!args.jsonl) {
    const [tool, json] = args.positionals as [string, string];
    let input: unknown;
    try {
      input = JSON.parse(json);
    } catch (error) {
      io.stderr.write(`warden permissions check: JSON_INPUT is not valid JSON: ${(error as Error).message}\n`);
      return 2;
    }
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      io.stderr.write("warden permissions check: JSON_INPUT must be a JSON object\n");
      return 2;
    }
    const outcome = await checker.check({ tool, input: input as Record<string, unknown> });
    if (!outcome.ok) {
      io.stderr.write(`warden permissions check: ${outcome.error}\n`);
      return 2;
    }
    io.stdout.write(`${JSON.stringify(outcome.line)}\n`);
    return 0;
  }

  let failures = 0;
  let lineNumber = 0;
  let buffer = "";
  const flush = () => {
    if (buffer) io.stdout.write(buffer);
    buffer = "";
  };
  for await (const text of createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
    lineNumber++;
    if (text.trim() === "") continue;
    let request: CheckRequest;
    try {
      request = JSON.parse(text) as CheckRequest;
      if (typeof request !== "object" || request === null || Array.isArray(request))
        throw new Error("not a JSON object");
    } catch (error) {
      failures++;
      buffer += `${JSON.stringify({ error: `line ${lineNumber}: ${(error as Error).message}` })}\n`;
      continue;
    }
    const outcome = await checker.check(request);
    if (outcome.ok) {
      buffer += `${JSON.stringify(outcome.line)}\n`;
    } else {
      failures++;
      buffer += `${JSON.stringify({ error: `line ${lineNumber}: ${outcome.error}` })}\n`;
    }
    if (buffer.length > 64 * 1024) flush();
  }
  flush();
  return failures > 0 ? 1 : 0;
}
