// Which language servers a session may start, and whether each can be found, decided without
// loading any LSP code (the tool's isEnabled() asks this at start-up). Two are built in:
// TypeScript/JavaScript through typescript-language-server (a dependency of Warden) and Python
// through pyright, when pyright-langserver is on PATH or installed in the project. Active plugins
// add servers (src/config/plugins/lsp-servers.ts), tried after the built-in and the user's own for
// a file. Settings `lspServers` adds servers, or changes or turns off a built-in or plugin one by its name.
import { accessSync, constants, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, extname, isAbsolute, join } from "node:path";
import * as z from "zod";

/** One language server as a session starts it. */
export interface LspServerSpec {
  /** The key in settings `lspServers` ("typescript" and "pyright" are the built-in ones). */
  name: string;
  command: string;
  args: string[];
  /** File extensions this server answers for, with the dot, lower case (".ts"). */
  extensions: string[];
  /** Extension → LSP languageId where it is not the extension without its dot. */
  languageIds: Record<string, string>;
  env: Record<string, string>;
  initializationOptions?: unknown;
  /** What the server gets when it asks for `workspace/configuration`, by section. */
  settings?: Record<string, unknown>;
  /** How long it may take to answer `initialize`, in ms (the client's default when absent). */
  startupTimeout?: number;
}

// Built at the first settings that name a language server, not at every start (issue 39).
const userServerSchema = z.lazy(() =>
  z.strictObject({
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    extensions: z
      .array(z.string().regex(/^\.?[A-Za-z0-9_+-]+$/))
      .min(1)
      .optional(),
    languageIds: z.record(z.string(), z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    initializationOptions: z.unknown().optional(),
    settings: z.record(z.string(), z.unknown()).optional(),
    startupTimeout: z.number().int().positive().optional(),
    disabled: z.boolean().optional(),
  }),
);

export type LspServerSettings = z.infer<typeof userServerSchema>;

const TS_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
const TS_LANGUAGE_IDS: Record<string, string> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescriptreact",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascriptreact",
};

const require = createRequire(import.meta.url);

/** A package's folder as Node resolves it from Warden's own code, or undefined when not installed. */
function packageDir(name: string): string | undefined {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

/**
 * typescript-language-server run by this Node, told to use Warden's own TypeScript: a project's
 * node_modules/typescript (and the tsserver plugins it would load) is code from the repository,
 * which an untrusted clone must not get to run.
 */
function builtInTypeScript(): Omit<LspServerSpec, "name"> | undefined {
  const server = packageDir("typescript-language-server");
  const typescript = packageDir("typescript");
  if (!server || !typescript) return undefined;
  return {
    command: process.execPath,
    args: [join(server, "lib", "cli.mjs"), "--stdio"],
    extensions: TS_EXTENSIONS,
    languageIds: TS_LANGUAGE_IDS,
    env: {},
    initializationOptions: {
      // One tsserver, the one that loads the whole project. By default typescript-language-server
      // also runs a syntax-only tsserver and sends it definition, hover, references and
      // implementation requests until the project has loaded (seconds): that one sees only the open
      // file, so an imported name is only its import line, where an editor (and the model) wants
      // the declaration in the other file. The model's first questions come exactly then; a right
      // answer a few seconds later is worth more to it than a fast wrong one (and it saves a process).
      tsserver: { path: join(typescript, "lib", "tsserver.js"), useSyntaxServer: "never" },
      preferences: {},
    },
  };
}

function builtInPyright(): Omit<LspServerSpec, "name"> {
  return {
    command: "pyright-langserver",
    args: ["--stdio"],
    extensions: [".py", ".pyi"],
    languageIds: { ".py": "python", ".pyi": "python" },
    env: {},
  };
}

/** Where a command is: as given when it has a slash, else on PATH, else (trusted folders only) in node_modules/.bin. */
export function findCommand(command: string, cwd: string, projectBinAllowed: boolean): string | undefined {
  if (command.includes("/")) {
    const path = isAbsolute(command) ? command : join(cwd, command);
    return isExecutable(path) ? path : undefined;
  }
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const path = join(dir, command);
    if (isExecutable(path)) return path;
  }
  if (projectBinAllowed) {
    const path = join(cwd, "node_modules", ".bin", command);
    if (isExecutable(path)) return path;
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A server settings or a plugin set up that cannot run here, kept so a call for its files can say why. */
export interface UnavailableLspServer {
  name: string;
  extensions: string[];
  reason: string;
}

export interface LspServerChoice {
  /** Servers that can be started in this project, in the order they are tried for a file. */
  servers: LspServerSpec[];
  /** Servers from settings or plugins that cannot run (their command is not there). */
  unavailable: UnavailableLspServer[];
  /** Settings that could not be used, each a sentence for the user. */
  warnings: string[];
}

export interface ChooseServersOptions {
  cwd: string;
  /** Settings `lspServers`, merged over the settings files (unvalidated). */
  settings?: Record<string, unknown>;
  /**
   * The folder is trusted: a language server installed in the project (node_modules/.bin) may be
   * run. Settings from an untrusted folder never reach here (they wait for `warden trust`).
   */
  trusted: boolean;
  /**
   * Servers the active plugins declare, by name (`plugin:<plugin>:<server>`), shaped like settings
   * entries. Only plugins the user turned on, or a trusted project did, get here (src/config/plugins/).
   */
  pluginServers?: Record<string, unknown>;
}

/**
 * The servers a session may start: built-in ones whose program is there and whose language the
 * project's top folder shows (a marker file or a source file), and every server from settings
 * or a plugin whose command can be found. A file goes to the first server listing its extension.
 */
export function chooseLspServers(options: ChooseServersOptions): LspServerChoice {
  const warnings: string[] = [];
  const unavailable: UnavailableLspServer[] = [];
  const topNames = topLevelNames(options.cwd);
  // Functions: resolving Warden's own packages costs file lookups, done only for a project that needs them.
  const builtIn: Partial<Record<string, () => Omit<LspServerSpec, "name"> | undefined>> = {
    typescript: builtInTypeScript,
    pyright: builtInPyright,
  };
  const configured = new Map<string, LspServerSettings>();
  for (const [name, raw] of Object.entries(options.settings ?? {})) {
    const parsed = userServerSchema.safeParse(raw);
    if (!parsed.success) {
      warnings.push(`settings lspServers.${name} is not valid (${parsed.error.issues[0]?.message}); it is ignored`);
      continue;
    }
    configured.set(name, parsed.data);
  }
  const fromPlugins = new Map<string, LspServerSettings>();
  for (const [name, raw] of Object.entries(options.pluginServers ?? {})) {
    const parsed = userServerSchema.safeParse(raw);
    if (!parsed.success || !parsed.data.command || !parsed.data.extensions) {
      warnings.push(`language server "${name}" from a plugin is not valid; it is ignored`);
      continue;
    }
    fromPlugins.set(name, parsed.data);
  }
  // Built-in first, then the user's own, then the plugins': a plugin cannot take a file from either.
  const names = new Set([
    ...Object.keys(builtIn),
    ...[...configured.keys()].filter((name) => !fromPlugins.has(name)),
    ...fromPlugins.keys(),
  ]);
  const servers: LspServerSpec[] = [];
  for (const name of names) {
    const own = configured.get(name);
    if (own?.disabled) continue;
    const fromPlugin = fromPlugins.get(name);
    const makeBase = builtIn[name] ?? (fromPlugin && (() => mergeSpec(name, undefined, fromPlugin)));
    if (!makeBase && (!own?.command || !own.extensions)) {
      warnings.push(`settings lspServers.${name} needs "command" and "extensions"; it is ignored`);
      continue;
    }
    // A built-in server stays out of projects that show nothing in its language; one the user
    // configured is always offered.
    if (!own && !showsLanguage(topNames, BUILT_IN_SIGNS[name])) continue;
    const base = makeBase?.();
    if (makeBase && !base) continue; // Its package is not installed.
    const merged = mergeSpec(name, base, own);
    const command =
      merged.command === process.execPath ? merged.command : findCommand(merged.command, options.cwd, options.trusted);
    if (!command) {
      if (own || fromPlugin) {
        warnings.push(`language server "${name}": command ${merged.command} was not found`);
        unavailable.push({
          name,
          extensions: merged.extensions,
          reason: `its command ${merged.command} was not found`,
        });
      }
      continue;
    }
    if (fromPlugin) {
      const earlier = merged.extensions.map((ext) => serverForFile(servers, `x${ext}`)?.name);
      if (earlier.every((taken) => taken !== undefined)) {
        warnings.push(
          `language server "${name}" answers for no file: ${[...new Set(earlier)].join(", ")} answer(s) for its extensions first (turn one off with settings lspServers.NAME.disabled)`,
        );
      }
    }
    servers.push({ ...merged, command });
  }
  return { servers, unavailable, warnings };
}

function mergeSpec(
  name: string,
  base: Omit<LspServerSpec, "name"> | undefined,
  own: LspServerSettings | undefined,
): LspServerSpec {
  const extensions = (own?.extensions ?? base?.extensions ?? []).map((ext) =>
    (ext.startsWith(".") ? ext : `.${ext}`).toLowerCase(),
  );
  return {
    name,
    command: own?.command ?? base?.command ?? "",
    args: own?.args ?? (own?.command ? [] : (base?.args ?? [])),
    extensions,
    languageIds: { ...base?.languageIds, ...own?.languageIds },
    env: { ...base?.env, ...own?.env },
    initializationOptions: own?.initializationOptions ?? base?.initializationOptions,
    settings: own?.settings ?? base?.settings,
    ...((own?.startupTimeout ?? base?.startupTimeout) !== undefined && {
      startupTimeout: own?.startupTimeout ?? base?.startupTimeout,
    }),
  };
}

function topLevelNames(cwd: string): string[] {
  try {
    return readdirSync(cwd);
  } catch {
    return [];
  }
}

/** What shows a project is in a built-in server's language, at its top folder. */
const BUILT_IN_SIGNS: Record<string, { rootMarkers: string[]; extensions: string[] }> = {
  typescript: { rootMarkers: ["tsconfig.json", "jsconfig.json", "package.json"], extensions: TS_EXTENSIONS },
  pyright: {
    rootMarkers: ["pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "pyrightconfig.json"],
    extensions: [".py", ".pyi"],
  },
};

function showsLanguage(
  names: readonly string[],
  signs: { rootMarkers: string[]; extensions: string[] } | undefined,
): boolean {
  if (!signs) return true;
  return names.some(
    (name) => signs.rootMarkers.includes(name) || signs.extensions.includes(extname(name).toLowerCase()),
  );
}

/** The server that answers for this file, if any. */
export function serverForFile(servers: readonly LspServerSpec[], filePath: string): LspServerSpec | undefined {
  const ext = extname(filePath).toLowerCase();
  return servers.find((server) => server.extensions.includes(ext));
}

export function languageIdFor(spec: LspServerSpec, filePath: string): string {
  const ext = extname(filePath).toLowerCase();
  return spec.languageIds[ext] ?? ext.slice(1);
}
