// Custom agents: markdown files in `.warden/agents/` and `.claude/agents/` (the user's, then the
// project's) and the `agents` key of settings. The frontmatter says who the agent is (name and
// description, required) and what it may use; the body is its system prompt. A file that cannot
// be used is reported with its path and the reason, and every other file still loads.
//
// Project agents come from the repository being worked on, so they are honoured only when the
// folder's widening settings are (workspace trust): an untrusted clone cannot bring its own agents.
// Loaded with a dynamic import (it brings the YAML parser) only when an agent file or settings
// agents exist; ./agent-dirs.ts is the cheap look that decides.
import { readFileSync } from "node:fs";
import * as z from "zod";
import type { AgentDefinition, AgentLoadIssue, AgentSource } from "../tool/agents.js";
import { PERMISSION_MODES, type PermissionMode } from "../tool/permission-types.js";
import { type AgentDirectory, agentDirectories, agentFilesIn } from "./agent-dirs.js";
import { parseFrontmatter } from "./frontmatter.js";
import { hooksSchema } from "./settings-schema.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

/** A list given as YAML list or as one comma-separated string (`tools: Read, Grep`). */
const nameList = z
  .union([z.string(), z.array(z.string())])
  .transform((value) =>
    (Array.isArray(value) ? value : value.split(",")).map((item) => item.trim()).filter((item) => item !== ""),
  );

const frontmatterSchema = z.looseObject({
  name: z.string().regex(NAME, "name must be letters, digits, '-', '_', '.' or ':' (at most 64)"),
  description: z.string().trim().min(1, "description must not be empty"),
  tools: nameList.optional(),
  disallowedTools: nameList.optional(),
  model: z.string().trim().min(1).optional(),
  permissionMode: z.enum(PERMISSION_MODES as [PermissionMode, ...PermissionMode[]]).optional(),
  maxTurns: z.number().int().min(1).optional(),
  // Claude Code's shape: a list of server names (the session's) and `{name: config}` definitions
  // (started for this agent), or one object of definitions; a comma-separated string of names too.
  mcpServers: z
    .union([
      z.string(),
      z.array(z.union([z.string(), z.record(z.string(), z.unknown())])),
      z.record(z.string(), z.unknown()),
    ])
    .optional(),
  hooks: hooksSchema.optional(),
  background: z.boolean().optional(),
  isolation: z.literal("worktree").optional(),
  color: z.string().optional(),
  memory: z.enum(["user", "project", "local"]).optional(),
  skills: nameList.optional(),
});

type AgentFields = z.infer<typeof frontmatterSchema>;

function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.join(".");
      if (issue.code === "invalid_type" && issue.input === undefined) return `${where} is required`;
      return where ? `${where}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

function definitionOf(fields: AgentFields, systemPrompt: string, source: AgentSource, path?: string): AgentDefinition {
  const definition: AgentDefinition = {
    agentType: fields.name,
    whenToUse: fields.description,
    systemPrompt: systemPrompt.trim(),
    source,
  };
  if (path) definition.path = path;
  if (fields.tools) definition.tools = fields.tools;
  if (fields.disallowedTools) definition.disallowedTools = fields.disallowedTools;
  if (fields.model) definition.model = fields.model;
  if (fields.permissionMode) definition.permissionMode = fields.permissionMode;
  if (fields.maxTurns) definition.maxTurns = fields.maxTurns;
  if (fields.mcpServers) {
    const servers = agentMcpServers(fields.mcpServers);
    definition.mcpServers = servers.names;
    if (Object.keys(servers.inline).length > 0) definition.inlineMcpServers = servers.inline;
  }
  if (fields.hooks && Object.keys(fields.hooks).length > 0) definition.hooks = fields.hooks;
  if (fields.skills?.length) definition.skills = fields.skills;
  if (fields.memory) definition.memory = fields.memory;
  if (fields.background !== undefined) definition.background = fields.background;
  if (fields.isolation) definition.isolation = fields.isolation;
  if (fields.color) definition.color = fields.color;
  return definition;
}

/** Every server the frontmatter mentions by name, and the definitions among them by name. */
export function agentMcpServers(value: NonNullable<AgentFields["mcpServers"]>): {
  names: string[];
  inline: Record<string, unknown>;
} {
  const inline: Record<string, unknown> = {};
  const names: string[] = [];
  const items = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : [value];
  for (const item of items) {
    if (typeof item === "string") {
      if (item.trim() !== "") names.push(item.trim());
      continue;
    }
    for (const [name, config] of Object.entries(item)) {
      names.push(name);
      inline[name] = config;
    }
  }
  return { names, inline };
}

/** One agent file: its definition, or why it cannot be used. */
export function parseAgentFile(
  path: string,
  text: string,
  source: AgentSource,
): { definition: AgentDefinition } | { issue: AgentLoadIssue } {
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) return { issue: { path, reason: parsed.reason } };
  const fields = frontmatterSchema.safeParse(parsed.data);
  if (!fields.success) return { issue: { path, reason: describeZodError(fields.error) } };
  if (parsed.body.trim() === "") {
    return { issue: { path, reason: "the body (the agent's system prompt) is empty" } };
  }
  return { definition: definitionOf(fields.data, parsed.body, source, path) };
}

/** What the `agents` key of settings holds for one agent: the frontmatter's fields and `prompt`. */
const settingsAgentSchema = frontmatterSchema.omit({ name: true }).extend({ prompt: z.string().trim().min(1) });

/** Agents from settings (`{"agents": {"reviewer": {"description": ..., "prompt": ...}}}`). */
export function agentsFromSettings(
  value: unknown,
  where: string,
): { definitions: AgentDefinition[]; issues: AgentLoadIssue[] } {
  const definitions: AgentDefinition[] = [];
  const issues: AgentLoadIssue[] = [];
  if (value === undefined) return { definitions, issues };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { definitions, issues: [{ path: where, reason: "agents must be an object of agent name → definition" }] };
  }
  for (const [name, raw] of Object.entries(value)) {
    const path = `${where} (agents.${name})`;
    if (!NAME.test(name)) {
      issues.push({ path, reason: "name must be letters, digits, '-', '_', '.' or ':' (at most 64)" });
      continue;
    }
    const fields = settingsAgentSchema.safeParse(raw);
    if (!fields.success) {
      issues.push({ path, reason: describeZodError(fields.error) });
      continue;
    }
    definitions.push(definitionOf({ ...fields.data, name }, fields.data.prompt, "settings"));
  }
  return { definitions, issues };
}

export interface LoadAgentFilesOptions {
  cwd: string;
  /** Whether the folder's own widening settings are in force (src/config/trust/). */
  projectTrusted: boolean;
  /** Active plugins' agent folders (after the user's and project's). */
  pluginDirs?: readonly AgentDirectory[];
}

export interface LoadedAgentFiles {
  definitions: AgentDefinition[];
  issues: AgentLoadIssue[];
  /** Project agent files left out because the folder is not trusted. */
  untrustedProjectFiles: string[];
}

/** Reads every agent file, user folders first; files that fail are reported, the rest load. */
export function loadAgentFiles(options: LoadAgentFilesOptions): LoadedAgentFiles {
  const definitions: AgentDefinition[] = [];
  const issues: AgentLoadIssue[] = [];
  const untrustedProjectFiles: string[] = [];
  for (const { dir, source, plugin } of [...agentDirectories(options.cwd), ...(options.pluginDirs ?? [])]) {
    for (const path of agentFilesIn(dir)) {
      if (source === "project" && !options.projectTrusted) {
        untrustedProjectFiles.push(path);
        continue;
      }
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch (error) {
        issues.push({
          path,
          reason: `cannot read the file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
        });
        continue;
      }
      const result = parseAgentFile(path, text, source);
      if ("issue" in result) issues.push(result.issue);
      else if (plugin === undefined) definitions.push(result.definition);
      else definitions.push({ ...result.definition, agentType: `${plugin}:${result.definition.agentType}` });
    }
  }
  return { definitions, issues, untrustedProjectFiles };
}
