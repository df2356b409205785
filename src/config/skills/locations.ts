// Where skills and commands live. One list, read by discovery (./discover.ts) and by workspace
// trust (src/config/trust/project-skills.ts), so the two can never look in different places.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { userHome, wardenHome } from "../paths.js";
import type { PluginSkillFolders, SkillLevel } from "./types.js";

export type { PluginSkillFolders };

export type SkillFileKind = "skills" | "commands";

export interface SkillRoot {
  dir: string;
  level: SkillLevel;
  /** The plugin this folder belongs to: its items are named `plugin:name`. */
  plugin?: string;
}

/**
 * The roots of one kind, the user's and project's then the plugins'. A plugin was installed or
 * turned on by the user (a project's plugins wait for trust), so its grants count as the user's.
 */
export function allSkillRoots(
  cwd: string,
  kind: SkillFileKind,
  plugins: readonly PluginSkillFolders[] = [],
): SkillRoot[] {
  return [
    ...skillRoots(cwd, kind),
    ...plugins.flatMap((p) => p[kind].map((dir) => ({ dir, level: "user" as const, plugin: p.plugin }))),
  ];
}

/** Whether any skill or command folder exists: the cheap look before loading discovery. */
export function anySkillFolder(cwd: string, plugins: readonly PluginSkillFolders[] = []): boolean {
  return [...allSkillRoots(cwd, "skills", plugins), ...allSkillRoots(cwd, "commands", plugins)].some((root) =>
    existsSync(root.dir),
  );
}

/** In precedence order: the user's ~/.warden and ~/.claude, then the project's .warden and .claude. */
export function skillRoots(cwd: string, kind: SkillFileKind): SkillRoot[] {
  const project = resolve(cwd);
  return [
    { dir: join(wardenHome(), kind), level: "user" },
    { dir: join(userHome(), ".claude", kind), level: "user" },
    { dir: join(project, ".warden", kind), level: "project" },
    { dir: join(project, ".claude", kind), level: "project" },
  ];
}

/** The file a root's entry stands for: `<entry>/SKILL.md` for skills, the `.md` file itself for commands. */
export function skillFileOf(root: string, kind: SkillFileKind, entry: string): string | undefined {
  if (kind === "skills") return join(root, entry, "SKILL.md");
  return entry.endsWith(".md") ? join(root, entry) : undefined;
}

/**
 * The project's own skill and command files (those of the user's folders left out, also when the
 * project is the home folder), found synchronously for the settings loader.
 */
export function projectSkillFiles(cwd: string): string[] {
  const files: string[] = [];
  for (const kind of ["skills", "commands"] as const) {
    const roots = skillRoots(cwd, kind);
    const users = new Set(roots.filter((r) => r.level === "user").map((r) => r.dir));
    for (const root of roots) {
      if (root.level !== "project" || users.has(root.dir)) continue;
      let entries: string[];
      try {
        entries = readdirSync(root.dir).sort();
      } catch {
        continue;
      }
      for (const entry of entries) {
        const file = skillFileOf(root.dir, kind, entry);
        if (file && statSync(file, { throwIfNoEntry: false })?.isFile()) files.push(file);
      }
    }
  }
  return files;
}
