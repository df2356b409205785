// A session that started without skills has no Skill tool, and so nothing that would notice a
// skill written while it runs (the tool's own listing does that once it exists). This reminder
// source stands in for it: before each request it takes the skill folders' fingerprint (a few
// directory reads, config/skills/stamp.ts), and once they hold a skill the model may run, it
// gives the session the Skill tool, deferred, and tells the model the skills and how to load the
// tool. Deferred, because the requests' tools (and the system prompt) are the head of the cached
// prefix: a tool added to them mid-session would make every later request pay for the whole
// conversation again. Only the first request's bytes are fixed for good; ToolSearch adds the tool's
// schema when the model loads it, as for any deferred tool.
import type { SkillCatalog } from "../../config/skills/index.js";
import { skillFoldersStamp } from "../../config/skills/stamp.js";
import { catalogTrust } from "../../config/skills/types.js";
import type { AnyTool, AttachmentSource } from "../../tool/types.js";

export interface SkillArrivalOptions {
  cwd: string;
  /** The catalog the session started with (no skill the model may run); its trust holds. */
  atStart: SkillCatalog;
  /** Puts tools in the session's pool (from its next request; the running one's too). */
  addTools: (tools: AnyTool[]) => void;
}

export function skillArrivalSource(options: SkillArrivalOptions): AttachmentSource {
  let stamp = skillFoldersStamp(options.cwd);
  let done = false;
  return {
    // The same kind as the Skill tool's listing: what it says is that listing, the first time.
    kind: "skill_listing",
    async collect(ctx) {
      if (done) return undefined;
      // The tool came another way (a `/` completion in the UI, the SDK's reload_skills): its own
      // listing tells the model from now on.
      if (ctx.context.options.tools.some((tool) => tool.name === "Skill")) {
        done = true;
        return undefined;
      }
      const now = skillFoldersStamp(options.cwd);
      if (now === stamp) return undefined;
      stamp = now;
      const [{ discoverSkills }, { modelInvocableSkills }, { createLiveSkillTool }] = await Promise.all([
        import("../../config/skills/discover.js"),
        import("../../tools/skill/listing.js"),
        import("./skills-setup.js"),
      ]);
      const catalog = await discoverSkills({ cwd: options.cwd, ...catalogTrust(options.atStart) });
      if (modelInvocableSkills(catalog).length === 0) return undefined;
      done = true;
      const tool = await createLiveSkillTool(options.cwd, catalog, { deferred: true });
      options.addTools([tool]);
      // A tool the rules deny by name (or a session without tools) stays out of the pool: then
      // there is nothing to tell.
      if (!ctx.context.options.tools.includes(tool)) return undefined;
      // This request's reminders were chosen before the tool joined: its listing is told here, and
      // its source remembers having told it (the next request does not repeat it).
      const results = await Promise.all((tool.attachments ?? []).map((source) => source.collect(ctx)));
      return results.flatMap((result) => result ?? []);
    },
  };
}
