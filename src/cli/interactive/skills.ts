// The interactive session's commands and skills, read again from disk whenever the prompt needs
// them (a `/` typed, /help, a `/name` sent): a command file written while the session runs is
// listed and expanded without a restart. Discovery reads a few small folders, so doing it on demand
// costs less than watching them. A problem with a file is reported once, not at every `/`.

import type { SkillCatalog } from "../../config/skills/index.js";
import { anySkillFolder } from "../../config/skills/locations.js";
import { catalogTrust } from "../../config/skills/types.js";
import type { CustomCommandInfo } from "../../ui/run.js";

export interface LiveSkillCatalog {
  /** The catalog as the folders hold it now. */
  current(): Promise<SkillCatalog>;
  /** Its commands and skills as the prompt lists them. */
  listing(): Promise<CustomCommandInfo[]>;
}

export function liveSkillCatalog(
  cwd: string,
  atStart: SkillCatalog,
  warn: (message: string) => void,
  /** Hears each catalog read from disk (the session offers the Skill tool once there is a skill). */
  onRead: (catalog: SkillCatalog) => Promise<void> = async () => undefined,
): LiveSkillCatalog {
  const reported = new Set(atStart.warnings);
  const current = async (): Promise<SkillCatalog> => {
    if (!anySkillFolder(cwd, atStart.pluginFolders)) return { ...atStart, skills: [], commands: [], warnings: [] };
    const { discoverSkills } = await import("../../config/skills/discover.js");
    // Trust was decided when the session started (the folder's settings with it); it holds until the next.
    const catalog = await discoverSkills({ cwd, ...catalogTrust(atStart) });
    for (const warning of catalog.warnings) {
      if (reported.has(warning)) continue;
      reported.add(warning);
      warn(warning);
    }
    await onRead(catalog);
    return catalog;
  };
  return {
    current,
    async listing() {
      const catalog = await current();
      const entries: CustomCommandInfo[] = [
        ...catalog.commands.map((c) => ({
          name: c.name,
          description: c.description ?? "",
          ...(c.argumentHint ? { argumentHint: c.argumentHint } : {}),
          kind: "command" as const,
          level: c.level,
          ...(c.plugin !== undefined && { plugin: c.plugin }),
        })),
        ...catalog.skills.map((s) => ({
          name: s.name,
          description: s.description,
          ...(s.argumentHint ? { argumentHint: s.argumentHint } : {}),
          kind: "skill" as const,
          level: s.level,
          ...(s.plugin !== undefined && { plugin: s.plugin }),
        })),
      ];
      // A command and a skill of one name: the command is what `/name` runs (expandSlashPrompt's order).
      const byName = new Map<string, CustomCommandInfo>();
      for (const entry of entries) if (!byName.has(entry.name)) byName.set(entry.name, entry);
      return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
    },
  };
}
