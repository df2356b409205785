// Where custom agents live (`.claude/agents/` and `.warden/agents/`, the user's then the project's)
// and the cheap look at start-up that says whether there are any: a readdir per folder, no parsing
// (./agent-files.ts parses them, loaded only when there is something to parse).
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { AgentSource } from "../tool/agents.js";
import { userHome, wardenHome } from "./paths.js";

export interface AgentDirectory {
  dir: string;
  source: Exclude<AgentSource, "built-in" | "settings">;
  /** For a plugin's folder: its name, which the folder's agents carry first (`plugin:agent`). */
  plugin?: string;
}

/** Where custom agents are looked for, lowest precedence first (a later file of the same name wins). */
export function agentDirectories(cwd: string): AgentDirectory[] {
  const project = resolve(cwd);
  return [
    { dir: join(userHome(), ".claude", "agents"), source: "user" },
    { dir: join(wardenHome(), "agents"), source: "user" },
    { dir: join(project, ".claude", "agents"), source: "project" },
    { dir: join(project, ".warden", "agents"), source: "project" },
  ];
}

/**
 * The `.md` files of one folder, sorted; a missing folder has none. A plugin may name a single
 * agent file instead of a folder (plugin.json `agents`): that file is the whole list.
 */
export function agentFilesIn(dir: string): string[] {
  if (dir.endsWith(".md") && isFile(dir)) return [dir];
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith(".md"))
      .map((entry) => join(dir, entry.name))
      .sort();
  } catch {
    return [];
  }
}

/** True when any agent folder has a file: the cheap check before parsing anything. */
export function anyAgentFiles(cwd: string, pluginDirs: readonly AgentDirectory[] = []): boolean {
  return [...agentDirectories(cwd), ...pluginDirs].some(({ dir }) => agentFilesIn(dir).length > 0);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
