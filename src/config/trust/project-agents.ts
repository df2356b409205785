// The project's agent files (`.claude/agents/*.md`, `.warden/agents/*.md`) as workspace trust sees
// them. An agent's frontmatter may ask for more than its parent has: a wider permission mode, hooks
// that run commands, MCP servers to start. Warden caps the mode at the parent's and takes only
// server names today, but these are grants in intent, so a file holding one waits for trust like
// a settings file would (and until the folder is trusted no project agent loads). `tools` and
// `disallowedTools` only narrow the parent's pool, so they need none.
//
// Decided on the parsed frontmatter, with the agent loader's own parser (../frontmatter.ts), never
// on the text: the same YAML spellings that fooled a text search for `allowed-tools` would fool one
// for `hooks`. A file that does not parse is not loaded, so it grants nothing.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { agentDirectories, agentFilesIn } from "../agent-dirs.js";
import { parseFrontmatter } from "../frontmatter.js";
import type { WideningSetting } from "./types.js";

/** Modes a parent in default mode does not have; an agent asking for one asks for more. */
const WIDER_MODES = new Set(["acceptEdits", "auto", "bypassPermissions"]);

/** The frontmatter keys that would widen, with what each asks for. */
export function agentGrants(data: Record<string, unknown>): Record<string, unknown> {
  const grants: Record<string, unknown> = {};
  if (data.hooks !== undefined && data.hooks !== null) grants.hooks = data.hooks;
  if (data.mcpServers !== undefined && data.mcpServers !== null) grants.mcpServers = data.mcpServers;
  // Any other value is refused by the loader's schema (the file does not load).
  if (typeof data.permissionMode === "string" && WIDER_MODES.has(data.permissionMode)) {
    grants.permissionMode = data.permissionMode;
  }
  return grants;
}

const DESCRIBE: Record<string, (value: unknown) => string> = {
  hooks: () => "hooks that run commands",
  mcpServers: (value) =>
    `MCP servers: ${Array.isArray(value) ? value.join(", ") : typeof value === "object" && value ? Object.keys(value).join(", ") : String(value)}`,
  permissionMode: (value) => `permission mode ${JSON.stringify(value)}`,
};

export interface ProjectAgentGrants {
  content: Record<string, Record<string, unknown>>;
  widening: WideningSetting[];
}

export function readProjectAgentGrants(cwd: string): ProjectAgentGrants | undefined {
  const content: Record<string, Record<string, unknown>> = {};
  const widening: WideningSetting[] = [];
  const directories = agentDirectories(cwd);
  // A project folder that is also the user's (the session runs in the home folder) holds the user's own agents.
  const users = new Set(directories.filter((d) => d.source === "user").map((d) => d.dir));
  for (const { dir, source } of directories) {
    if (source !== "project" || users.has(dir)) continue;
    for (const file of agentFilesIn(dir)) {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch {
        continue; // unreadable: not loaded, grants nothing
      }
      const parsed = parseFrontmatter(text);
      if (!parsed.ok) continue;
      const grants = agentGrants(parsed.data);
      if (Object.keys(grants).length === 0) continue;
      const name = relative(cwd, file).split("\\").join("/");
      content[name] = grants;
      for (const [key, value] of Object.entries(grants)) {
        widening.push({ file: name, key, grants: `agent asks for ${DESCRIBE[key]?.(value) ?? key}`, known: true });
      }
    }
  }
  return widening.length > 0 ? { content, widening } : undefined;
}
