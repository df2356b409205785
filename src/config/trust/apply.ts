// Workspace trust applied to a session's settings. The folder's own files (project and local
// settings of .warden/ and .claude/, and .mcp.json) can be committed by whoever wrote the
// repository: a clone must not be able to allow commands, run hooks, start servers, widen the
// working directories or switch the sandbox off just by being opened. So, until the user has
// trusted the folder (for exactly its current widening settings), those files count only where
// they restrict. A trusted folder's files apply whole, as Claude Code applies them.
//
// Sources besides settings files add their widening content the same way (held back and
// fingerprinted): .mcp.json, the `allowed-tools` of the project's skills and commands
// (./project-skills.ts) and what the project's agents ask for (./project-agents.ts), each judged
// on the file as its loader parses it, never on its text.
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { PERMISSION_MODES, type PermissionMode } from "../../tool/permission-types.js";
import { parseConfigJson } from "../json-text.js";
import {
  isProjectServerApproved,
  type ProjectServerApprovals,
  projectServerApprovals,
} from "../project-server-approvals.js";
import type { Settings } from "../settings-schema.js";
import { describeMcpServer, describeSettingsWidening } from "./describe.js";
import { wideningFingerprint } from "./fingerprint.js";
import { readProjectAgentGrants } from "./project-agents.js";
import { readProjectSkillGrants } from "./project-skills.js";
import { splitProjectSettings } from "./split.js";
import { findTrustEntry, trustIdentity } from "./trusted-folders.js";
import type { TrustedFolderEntry, WideningSetting, WorkspaceTrust, WorkspaceTrustStatus } from "./types.js";

/** What trust needs of a settings file (the loader's SettingsFile fits). */
export interface TrustableSettingsFile {
  source: "userSettings" | "projectSettings" | "localSettings" | "cliArg" | "policySettings";
  path: string;
  settings: Settings;
}

export interface ApplyWorkspaceTrustOptions<F extends TrustableSettingsFile = TrustableSettingsFile> {
  /** The session's folder: where its project settings and .mcp.json were found. */
  cwd: string;
  /** `--trust-project`: trust the folder for this run only, whatever it holds. */
  trustProject?: boolean;
  /**
   * Every settings file there is, when `files` are only those of the chosen sources
   * (`--setting-sources`): trust is decided on the folder's whole settings and the user's trust
   * entries whichever sources the session reads, so choosing fewer never unsettles a trusted folder.
   */
  everyFile?: readonly F[];
}

export interface TrustedSettings<F extends TrustableSettingsFile> {
  /** The files to use: whole when trusted, the folder's files cut to what restricts otherwise. */
  files: F[];
  trust: WorkspaceTrust;
  /**
   * When the folder is not trusted: its files cut to what was held back (never applied), so that a
   * refusal can say when the folder's own allow rule would have let the call through.
   */
  withheld: F[];
}

const FROM_THE_FOLDER = new Set(["projectSettings", "localSettings"]);

export function applyWorkspaceTrust<F extends TrustableSettingsFile>(
  files: readonly F[],
  options: ApplyWorkspaceTrustOptions<F>,
): TrustedSettings<F> {
  const cwd = resolve(options.cwd);
  const folder = trustIdentity(cwd);
  const deciding = options.everyFile ?? files;
  // When the folder is the home itself, its "project" files are the user's own files.
  const usersOwn = new Set(deciding.filter((f) => !FROM_THE_FOLDER.has(f.source)).map((f) => trustIdentity(f.path)));
  const isFolders = (file: F) => FROM_THE_FOLDER.has(file.source) && !usersOwn.has(trustIdentity(file.path));

  // The mode the session's own chosen files set: a mode in a user file the session does not read
  // (left out by --setting-sources) must not make the folder's looser mode count as no widening.
  const trustedMode = modeOfUsersOwnFiles(files.filter((f) => !isFolders(f)));
  const wideningByFile: Record<string, unknown> = {};
  const widening: WideningSetting[] = [];
  // Each folder file split once: the chosen files are among `deciding` as the same objects.
  const splits = new Map(
    deciding.filter(isFolders).map((file) => [file, splitProjectSettings(file.settings, trustedMode)] as const),
  );
  for (const [file, split] of splits) {
    if (Object.keys(split.widening).length === 0) continue;
    const name = displayName(cwd, file.path);
    wideningByFile[name] = split.widening;
    widening.push(...describeSettingsWidening(name, split.widening));
  }
  const restrictedFiles = files.map((file) => {
    const split = splits.get(file);
    return !split || Object.keys(split.widening).length === 0 ? file : { ...file, settings: split.restricting };
  });
  const mcpJson = readMcpJson(cwd, projectServerApprovals(deciding));
  if (mcpJson) {
    wideningByFile[".mcp.json"] = mcpJson.content;
    widening.push(...mcpJson.widening);
  }

  const skillGrants = readProjectSkillGrants(cwd);
  if (skillGrants) {
    Object.assign(wideningByFile, skillGrants.content);
    widening.push(...skillGrants.widening);
  }
  const agentGrants = readProjectAgentGrants(cwd);
  if (agentGrants) {
    Object.assign(wideningByFile, agentGrants.content);
    widening.push(...agentGrants.widening);
  }

  // Hashed only when something reads it: a folder with nothing to trust and no trust entry (most
  // sessions) then never loads node:crypto before its first request.
  let fingerprint: string | undefined;
  const fingerprintOf = () => {
    fingerprint ??= wideningFingerprint(wideningByFile);
    return fingerprint;
  };
  const entry = findTrustEntry(userTrustEntries(deciding), folder);
  let status: WorkspaceTrustStatus;
  if (widening.length === 0) status = "not_needed";
  else if (entry?.settingsHash === fingerprintOf()) status = "trusted";
  else if (options.trustProject) status = "trusted_for_this_run";
  else status = "untrusted";
  const trust: WorkspaceTrust = {
    folder,
    status,
    widening,
    get fingerprint() {
      return fingerprintOf();
    },
    changedSinceTrusted: entry !== undefined && entry.settingsHash !== fingerprintOf(),
    // Only the grants trust was decided on: a skill written or changed after this look (by the
    // model, mid-session) grants nothing until the folder is trusted again. `--trust-project`
    // trusts the folder whatever it holds.
    ...(status === "trusted_for_this_run"
      ? {}
      : { skillGrants: status === "trusted" ? (skillGrants?.byFile ?? {}) : {} }),
  };
  if (status !== "untrusted") return { files: [...files], trust, withheld: [] };
  const withheld = files.flatMap((file) => {
    const split = splits.get(file);
    // The held-back part keeps the file's own shape (keys and values as its loader parsed them).
    return split && Object.keys(split.widening).length > 0 ? [{ ...file, settings: split.widening as Settings }] : [];
  });
  return { files: restrictedFiles, trust, withheld };
}

/** The mode the user's own sources give, as the context builder would resolve it from them alone. */
function modeOfUsersOwnFiles(files: readonly TrustableSettingsFile[]): PermissionMode {
  for (let i = files.length - 1; i >= 0; i--) {
    const mode = files[i]?.settings.permissions?.defaultMode;
    if (mode === undefined || !(PERMISSION_MODES as readonly string[]).includes(mode)) continue;
    // A file cannot start bypass mode (only the command line can): it counts as default.
    return mode === "bypassPermissions" ? "default" : mode;
  }
  return "default";
}

function userTrustEntries(files: readonly TrustableSettingsFile[]): TrustedFolderEntry[] {
  return files.filter((f) => f.source === "userSettings").flatMap((f) => f.settings.trustedFolders ?? []);
}

function displayName(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel.startsWith("..") ? path : rel.split("\\").join("/");
}

/**
 * `.mcp.json` as it stands: every server in it would start a program or reach a URL. The whole
 * parsed file is fingerprinted (an unparsable one by its text); the MCP loader reports its errors.
 */
function readMcpJson(
  cwd: string,
  approvals: ProjectServerApprovals,
): { content: unknown; widening: WideningSetting[] } | undefined {
  let text: string;
  try {
    text = readFileSync(join(cwd, ".mcp.json"), "utf8");
  } catch {
    return undefined;
  }
  let json: unknown;
  try {
    json = parseConfigJson(text);
  } catch {
    return {
      content: { unparsedText: text },
      widening: [
        { file: ".mcp.json", key: "mcpServers", grants: "MCP servers (the file is not valid JSON)", known: true },
      ],
    };
  }
  const servers =
    typeof json === "object" && json !== null && !Array.isArray(json)
      ? (json as Record<string, unknown>).mcpServers
      : undefined;
  const entries =
    typeof servers === "object" && servers !== null && !Array.isArray(servers) ? Object.entries(servers) : [];
  if (entries.length === 0) return undefined;
  return {
    content: json,
    widening: entries.map(([name, config]) => ({
      file: ".mcp.json",
      key: `mcpServers.${name}`,
      // Trust alone starts none of them: each still waits for `warden mcp approve NAME` (or the
      // person's own enabledMcpjsonServers), so the listing must not promise more; one already
      // approved starts as soon as the folder is trusted, and saying "once approved" sent the
      // person to approve it again.
      grants: isProjectServerApproved(name, approvals)
        ? `${describeMcpServer(name, config)} (approved)`
        : `${describeMcpServer(name, config)}, once approved (warden mcp approve ${name})`,
      known: true,
    })),
  };
}
