// Finds and reads the settings files of a session, lowest precedence first. Broken files are
// reported with their path and the problem; a problem in a field that can only make the session
// stricter (deny rules, hooks...) stops the session instead of being skipped (see settingsFields).
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { jsonErrorOffset } from "./json-error-position.js";
import { withoutByteOrderMark } from "./json-text.js";
import { userHome, userSettingsPath } from "./paths.js";
import { type ActivePlugins, enabledPluginIds, resolveActivePlugins } from "./plugins/active.js";
import { type Settings, type SettingsField, settingsFields, unknownHookEvents } from "./settings-schema.js";
import { applyWorkspaceTrust, type WorkspaceTrust } from "./trust/index.js";

export { userSettingsPath };

export type SettingsSourceName = "userSettings" | "projectSettings" | "localSettings" | "cliArg" | "policySettings";

export interface SettingsFileLocation {
  source: SettingsSourceName;
  /** Absolute path, or `--settings` for JSON given inline on the command line. */
  path: string;
  /** Folder that `./` in this file's path rules is relative to. */
  root: string;
  /** Inline JSON from the command line instead of a file. */
  inline?: string;
}

export interface SettingsFile extends SettingsFileLocation {
  settings: Settings;
  text: string;
}

export interface SettingsIssue {
  file: string;
  line?: number;
  message: string;
}

export function formatSettingsIssue(issue: SettingsIssue): string {
  return `${issue.file}${issue.line !== undefined ? `:${issue.line}` : ""}: ${issue.message}`;
}

/** Settings that cannot be used safely: the session must not start. */
export class SettingsError extends Error {
  constructor(readonly issues: SettingsIssue[]) {
    super(
      `refusing to start: settings cannot be read safely:\n${issues.map((i) => `  ${formatSettingsIssue(i)}`).join("\n")}`,
    );
    this.name = "SettingsError";
  }
}

export interface LoadedSettings {
  /**
   * Files that exist and were read, lowest precedence first. When the folder is not trusted, its
   * own files (project and local) hold only what restricts; `workspaceTrust` says what was left out.
   */
  files: SettingsFile[];
  /** Problems that cost only the part they were in. */
  warnings: SettingsIssue[];
  /** Whether the folder's widening settings (and its .mcp.json servers) are in force. */
  workspaceTrust: WorkspaceTrust;
  /**
   * The folder's files cut to what was held back because it is not trusted (empty otherwise):
   * never applied, read only to tell the user what trusting the folder would let through.
   */
  withheldFiles?: SettingsFile[];
  /**
   * The plugins the files in force turn on, and `--plugin-dir` folders (src/plugins/). Absent when
   * none is: nothing was read for plugins.
   */
  plugins?: ActivePlugins;
}

export interface LoadSettingsOptions {
  cwd: string;
  /** `--settings FILE_OR_JSON` values, in order. */
  extraSettings?: string[];
  /** `--trust-project`: trust the folder's own settings for this run (CI). */
  trustProject?: boolean;
  /**
   * `--setting-sources`: which of the user, project and local files are read (all when absent);
   * `--settings` values and the managed policy always are.
   */
  sources?: ReadonlyArray<"user" | "project" | "local">;
  /** `--plugin-dir`: plugin folders for this session only. */
  pluginDirs?: readonly string[];
}

/** The system-wide policy file; `WARDEN_MANAGED_SETTINGS` moves it (tests, unusual installs). */
/**
 * The `env` of the files in force, merged lowest precedence first: the variables a session adds to
 * the processes it starts (Bash, hooks, MCP stdio servers). Callers pass files after workspace
 * trust, so an untrusted folder's own `env` is not among them.
 */
export function settingsEnv(files: ReadonlyArray<{ settings: Settings }>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const file of files) if (file.settings.env) Object.assign(env, file.settings.env);
  return env;
}

export function managedSettingsPath(): string {
  return process.env.WARDEN_MANAGED_SETTINGS || "/etc/warden/managed-settings.json";
}

export function projectSettingsPath(cwd: string): string {
  return join(resolve(cwd), ".warden", "settings.json");
}

export function localSettingsPath(cwd: string): string {
  return join(resolve(cwd), ".warden", "settings.local.json");
}

/** Every place settings may come from, lowest precedence first (Claude Code's files before ours). */
export function settingsFileLocations(options: LoadSettingsOptions): SettingsFileLocation[] {
  const cwd = resolve(options.cwd);
  const home = userHome();
  const everyFile: SettingsFileLocation[] = [
    { source: "userSettings", path: join(home, ".claude", "settings.json"), root: home },
    { source: "userSettings", path: userSettingsPath(), root: home },
    { source: "projectSettings", path: join(cwd, ".claude", "settings.json"), root: cwd },
    { source: "projectSettings", path: projectSettingsPath(cwd), root: cwd },
    { source: "localSettings", path: join(cwd, ".claude", "settings.local.json"), root: cwd },
    { source: "localSettings", path: localSettingsPath(cwd), root: cwd },
  ];
  const chosen = options.sources;
  const locations = chosen
    ? everyFile.filter((l) => chosen.includes(l.source.replace("Settings", "") as "user" | "project" | "local"))
    : everyFile;
  for (const value of options.extraSettings ?? []) {
    if (value.trimStart().startsWith("{")) {
      locations.push({ source: "cliArg", path: "--settings", root: cwd, inline: value });
    } else {
      const path = resolve(cwd, value);
      locations.push({ source: "cliArg", path, root: dirname(path) });
    }
  }
  locations.push({ source: "policySettings", path: managedSettingsPath(), root: "/" });
  return locations;
}

export function loadSettings(options: LoadSettingsOptions): LoadedSettings {
  const files: SettingsFile[] = [];
  const warnings: SettingsIssue[] = [];
  const errors: SettingsIssue[] = [];
  for (const location of settingsFileLocations(options)) {
    const result = readSettingsFile(location, location.source === "cliArg");
    warnings.push(...result.warnings);
    errors.push(...result.errors);
    if (result.file) files.push(result.file);
  }
  if (errors.length > 0) throw new SettingsError(errors);
  const trusted = applyWorkspaceTrust(files, {
    cwd: options.cwd,
    trustProject: options.trustProject,
    ...(options.sources && { everyFile: everySettingsFile(options, files) }),
  });
  const loaded: LoadedSettings = { files: trusted.files, warnings, workspaceTrust: trusted.trust };
  if (trusted.withheld.length > 0) loaded.withheldFiles = trusted.withheld;
  // Plugins are looked for only when the files in force (after trust) turn one on.
  if (options.pluginDirs?.length || enabledPluginIds(trusted.files).length > 0) {
    loaded.plugins = resolveActivePlugins({ cwd: options.cwd, files: trusted.files, pluginDirs: options.pluginDirs });
  }
  return loaded;
}

/**
 * With `--setting-sources`, the files of the sources left out too, read only for the trust
 * decision (./trust/apply.ts): one that cannot be read is left out, so the folder's fingerprint
 * differs and it counts as untrusted (closed, not open).
 */
function everySettingsFile(options: LoadSettingsOptions, chosen: readonly SettingsFile[]): SettingsFile[] {
  const all: SettingsFile[] = [];
  for (const location of settingsFileLocations({ ...options, sources: undefined })) {
    const already = chosen.find((f) => f.path === location.path && f.source === location.source);
    const file = already ?? readSettingsFile(location).file;
    if (file) all.push(file);
  }
  return all;
}

interface ReadResult {
  file?: SettingsFile;
  warnings: SettingsIssue[];
  errors: SettingsIssue[];
}

/** Reads one file. Missing is fine unless the user named it explicitly (`--settings`). */
export function readSettingsFile(location: SettingsFileLocation, mustExist = false): ReadResult {
  let text: string;
  if (location.inline !== undefined) {
    text = location.inline;
  } else {
    try {
      text = readFileSync(location.path, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" && !mustExist) return { warnings: [], errors: [] };
      const reason = code === "ENOENT" ? "file not found" : `cannot be read (${code ?? String(error)})`;
      return { warnings: [], errors: [{ file: location.path, message: reason }] };
    }
  }
  // Editors on Windows like to start UTF-8 files with a byte-order mark, which JSON.parse rejects.
  text = withoutByteOrderMark(text);
  if (text.trim() === "") return { file: { ...location, settings: {}, text }, warnings: [], errors: [] };

  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = jsonErrorOffset(text);
    const line = offset !== undefined ? lineAt(text, offset) : undefined;
    return {
      warnings: [],
      errors: [{ file: location.path, line, message: `invalid JSON (${message}); its deny rules cannot be read` }],
    };
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { warnings: [], errors: [{ file: location.path, message: "must hold a JSON object" }] };
  }
  return validateFields(location, raw as Record<string, unknown>, text);
}

/** The keys of `permissions` (Claude Code's): any other is reported, not silently ignored. */
const PERMISSIONS_KEYS: readonly string[] = [
  "allow",
  "deny",
  "ask",
  "defaultMode",
  "additionalDirectories",
  "disableBypassPermissionsMode",
];

function validateFields(location: SettingsFileLocation, raw: Record<string, unknown>, text: string): ReadResult {
  const settings: Settings = { ...raw };
  const warnings: SettingsIssue[] = [];
  const errors: SettingsIssue[] = [];
  if (raw.permissions !== undefined) {
    if (typeof raw.permissions !== "object" || raw.permissions === null || Array.isArray(raw.permissions)) {
      const issue = {
        file: location.path,
        line: keyLine(text, "permissions"),
        message: "permissions must be an object",
      };
      return { warnings, errors: [issue] };
    }
    settings.permissions = { ...(raw.permissions as Record<string, unknown>) };
    // A misspelt key ("denny", "Deny") would leave the rules under it unapplied without a word.
    for (const key of Object.keys(settings.permissions)) {
      if (PERMISSIONS_KEYS.includes(key)) continue;
      warnings.push({
        file: location.path,
        line: keyLine(text, key),
        message: `permissions.${key}: not a permissions setting (${PERMISSIONS_KEYS.join(", ")}); ignored`,
      });
    }
  }
  for (const field of settingsFields()) {
    const [head, tail] = field.path;
    const holder = (tail === undefined ? settings : settings[head]) as Record<string, unknown> | undefined;
    const key = tail ?? head;
    if (holder === undefined || holder[key] === undefined) continue;
    const parsed = field.schema.safeParse(holder[key]);
    if (parsed.success) {
      holder[key] = parsed.data;
      continue;
    }
    const where = parsed.error.issues[0]?.path ?? [];
    const name = [...field.path, ...where.map(String)].join(".");
    const problem = `${name}: ${parsed.error.issues[0]?.message ?? "invalid"}`;
    const line = keyLine(text, key);
    if (field.critical) {
      errors.push({ file: location.path, line, message: `${problem} (this field can only be skipped unsafely)` });
      continue;
    }
    const kept = withoutBadEntries(field.schema, holder[key], parsed.error.issues);
    if (kept !== undefined) {
      // Only the entries named are dropped: the list's other rules, folders... still apply.
      for (const issue of parsed.error.issues) {
        const entry = [...field.path, ...issue.path.map(String)].join(".");
        warnings.push({ file: location.path, line, message: `${entry}: ${issue.message}; this entry ignored` });
      }
      holder[key] = kept;
    } else {
      warnings.push({ file: location.path, line, message: `${problem}; ignored` });
      delete holder[key];
    }
  }
  for (const event of unknownHookEvents(settings.hooks)) {
    warnings.push({
      file: location.path,
      line: keyLine(text, event),
      message: `hooks.${event}: Warden does not run this hook event; its hooks will never fire`,
    });
  }
  return { file: errors.length === 0 ? { ...location, settings, text } : undefined, warnings, errors };
}

/**
 * A list whose only faults are some of its entries, without them (when the rest then passes the
 * schema); undefined when the fault is the field itself.
 */
function withoutBadEntries(
  schema: SettingsField["schema"],
  value: unknown,
  issues: readonly { path: readonly PropertyKey[] }[],
): unknown {
  if (!Array.isArray(value)) return undefined;
  const bad = new Set<number>();
  for (const issue of issues) {
    const index = issue.path[0];
    if (typeof index !== "number") return undefined;
    bad.add(index);
  }
  const reparsed = schema.safeParse(value.filter((_entry, index) => !bad.has(index)));
  return reparsed.success ? reparsed.data : undefined;
}

export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * lineAt for many offsets into one text: the newlines are found once, each offset is then a
 * binary search. Asking lineAt for each of a long list's entries scanned the file from its start
 * every time (a settings file of 20,000 rules took 6 s to read).
 */
export function lineFinder(text: string): (index: number) => number {
  const newlines: number[] = [];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) newlines.push(i);
  return (index) => {
    // The number of newlines before `index`, plus one.
    let low = 0;
    let high = newlines.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((newlines[mid] as number) < index) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  };
}

function keyLine(text: string, key: string): number | undefined {
  const index = text.indexOf(JSON.stringify(key));
  return index === -1 ? undefined : lineAt(text, index);
}

/**
 * `mcpServers` from every settings file, the higher-precedence file winning per server name.
 * The MCP layer validates each server's own shape.
 */
export function settingsMcpServers(
  loaded: LoadedSettings,
): Record<string, { config: Record<string, unknown>; file: string; source: SettingsSourceName }> {
  const servers: Record<string, { config: Record<string, unknown>; file: string; source: SettingsSourceName }> = {};
  for (const file of loaded.files) {
    for (const [name, config] of Object.entries(file.settings.mcpServers ?? {})) {
      servers[name] = { config, file: file.path, source: file.source };
    }
  }
  return servers;
}

/** The value of a top-level key in the highest-precedence file that sets it. */
export function settingsValue<K extends keyof Settings>(loaded: LoadedSettings, key: K): Settings[K] | undefined {
  let value: Settings[K] | undefined;
  for (const file of loaded.files) if (file.settings[key] !== undefined) value = file.settings[key];
  return value;
}
