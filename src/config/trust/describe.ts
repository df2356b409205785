// Says, in a line each, what a folder's widening settings would grant: what `warden trust` shows
// before trusting and what an untrusted session says it ignored. Commands that would run are shown
// (that is what the user must judge); environment values are not (they are often credentials).
import type { WideningSetting } from "./types.js";

const MAX_SHOWN = 160;

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > MAX_SHOWN ? `${oneLine.slice(0, MAX_SHOWN - 1)}…` : oneLine;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function list(value: unknown): string {
  return Array.isArray(value) ? value.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ") : "";
}

function keysOf(value: unknown): string {
  return isRecord(value) ? Object.keys(value).join(", ") : "";
}

const PERMISSION_GRANTS: Record<string, (value: unknown) => string> = {
  allow: (v) => `allow rules: ${clip(list(v))}`,
  additionalDirectories: (v) => `more working directories: ${clip(list(v))}`,
  // A settings file cannot start bypass mode (only the command line can): say so rather than list it
  // as something trusting the folder would turn on.
  defaultMode: (v) =>
    v === "bypassPermissions"
      ? 'permission mode "bypassPermissions", which only --dangerously-skip-permissions starts'
      : `permission mode ${JSON.stringify(v)}`,
};

const SANDBOX_GRANTS: Record<string, (value: unknown) => string> = {
  enabled: () => "turns the Bash sandbox off",
  allowNetwork: () => "lets sandboxed commands use the network",
  allowUnixSockets: () => "lets sandboxed commands open Unix sockets (ssh agent, Docker...)",
  allowUnsandboxedCommands: () => "lets commands ask to run outside the sandbox",
  excludedCommands: (v) => `commands that run outside the sandbox: ${clip(list(v))}`,
  autoAllowBashIfSandboxed: () => "runs sandboxed commands without asking",
  additionalWritableDirectories: (v) => `more folders the sandbox may write: ${clip(list(v))}`,
  filesystem: (v) => `sandbox filesystem settings: ${clip(JSON.stringify(v))}`,
  network: (v) => `sandbox network settings: ${clip(JSON.stringify(v))}`,
};

function hookLines(hooks: unknown): string {
  if (!isRecord(hooks)) return clip(JSON.stringify(hooks));
  const parts: string[] = [];
  for (const [event, matchers] of Object.entries(hooks)) {
    for (const matcher of Array.isArray(matchers) ? matchers : []) {
      const on =
        isRecord(matcher) && typeof matcher.matcher === "string" && matcher.matcher ? `(${matcher.matcher})` : "";
      const commands = isRecord(matcher) && Array.isArray(matcher.hooks) ? matcher.hooks : [];
      for (const hook of commands) {
        const command = !isRecord(hook)
          ? JSON.stringify(hook)
          : typeof hook.command === "string"
            ? hook.command
            : typeof hook.url === "string"
              ? `POST ${hook.url}`
              : typeof hook.prompt === "string"
                ? `${String(hook.type)}: ${hook.prompt}`
                : JSON.stringify(hook);
        parts.push(`${event}${on}: ${command}`);
      }
    }
  }
  return clip(parts.join("; "));
}

/** A server as the user would recognise it: its command line or its URL. */
export function describeMcpServer(name: string, config: unknown): string {
  if (!isRecord(config)) return `MCP server ${name}`;
  if (typeof config.url === "string") return `MCP server ${name} at ${clip(config.url)}`;
  const command = [config.command, ...(Array.isArray(config.args) ? config.args : [])]
    .filter((part) => typeof part === "string")
    .join(" ");
  return `MCP server ${name} runs: ${clip(command)}`;
}

/** Keys Warden acts on today; others are held back too, but silently. */
const KNOWN_TOP_LEVEL: Record<string, (value: unknown) => string> = {
  hooks: (v) => `hooks run commands: ${hookLines(v)}`,
  statusLine: (v) =>
    `the status line runs a command: ${clip(isRecord(v) && typeof v.command === "string" ? v.command : JSON.stringify(v))}`,
  enableAllProjectMcpServers: (v) => (v === true ? "approves every .mcp.json server" : "MCP approval setting"),
  enabledMcpjsonServers: (v) => `approves .mcp.json servers: ${clip(list(v))}`,
  env: (v) => `environment variables for the session: ${clip(keysOf(v))}`,
  models: (v) => `model limits and prices for: ${clip(keysOf(v))}`,
  model: (v) => `model ${clip(JSON.stringify(v))}`,
  // What /output-style saves (in .claude/settings.local.json): held back like the rest, so an
  // untrusted run must say so rather than fall back to the default style without a word.
  outputStyle: (v) => `output style ${clip(JSON.stringify(v))} (its text joins the system prompt)`,
  apiKeyHelper: (v) => `a command that supplies the API key: ${clip(String(v))}`,
  trustedFolders: () => "trusted folders (only your own settings can trust a folder)",
  enabledPlugins: (v) =>
    `turns on plugins (their commands, agents, hooks, MCP and language servers): ${clip(keysOf(v))}`,
  extraKnownMarketplaces: (v) => `plugin marketplaces: ${clip(keysOf(v))}`,
};

/** The keys that approve .mcp.json servers: counted only from local, user, command-line and policy settings. */
const MCP_APPROVALS = new Set(["enableAllProjectMcpServers", "enabledMcpjsonServers"]);

/** One line per widening key of one settings file. */
export function describeSettingsWidening(file: string, widening: Record<string, unknown>): WideningSetting[] {
  const found: WideningSetting[] = [];
  for (const [key, value] of Object.entries(widening)) {
    if (key === "permissions" && isRecord(value)) {
      for (const [sub, subValue] of Object.entries(value)) {
        const grants = PERMISSION_GRANTS[sub]?.(subValue);
        found.push({ file, key: `permissions.${sub}`, grants: grants ?? sub, known: grants !== undefined });
      }
    } else if (key === "sandbox" && isRecord(value)) {
      for (const [sub, subValue] of Object.entries(value)) {
        const grants = SANDBOX_GRANTS[sub]?.(subValue);
        found.push({ file, key: `sandbox.${sub}`, grants: grants ?? `sandbox.${sub}`, known: grants !== undefined });
      }
    } else if (key === "mcpServers" && isRecord(value)) {
      for (const [name, config] of Object.entries(value)) {
        found.push({ file, key: `mcpServers.${name}`, grants: describeMcpServer(name, config), known: true });
      }
    } else if (MCP_APPROVALS.has(key) && !file.endsWith(".local.json")) {
      // A committed file approves no server, trusted or not (src/mcp/config-sources.ts): listed as
      // a grant, it promised what trusting never gives.
      found.push({ file, key, grants: key, known: false });
    } else {
      const grants = KNOWN_TOP_LEVEL[key]?.(value);
      found.push({ file, key, grants: grants ?? key, known: grants !== undefined });
    }
  }
  return found;
}

/** What the session prints once when it ignored a folder's widening settings. */
export function untrustedNotice(trust: {
  folder: string;
  widening: readonly WideningSetting[];
  changedSinceTrusted: boolean;
}): string {
  const known = trust.widening.filter((w) => w.known);
  const why = trust.changedSinceTrusted
    ? `its settings changed since you trusted it`
    : "you have not trusted this folder";
  const lines = known.map((w) => `  ${w.file}: ${w.key}: ${w.grants}`);
  return [
    `the settings of ${trust.folder} were applied only where they restrict (${why}). Ignored:`,
    ...lines,
    `To use them: ${howToTrust(trust.folder)}.`,
  ].join("\n");
}

/** The command that shows what a folder grants and trusts it, and the one-run alternative. */
export function howToTrust(folder: string): string {
  return `run \`warden trust ${quoteForShell(folder)}\` (it shows what the folder grants before trusting it), or pass --trust-project for one run`;
}

function quoteForShell(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
