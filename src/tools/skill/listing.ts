// `skill_listing`: the skills the model may run, by name and description only, as a reminder before
// the first request of a session, again when the list changes (a skill written, edited or removed
// while the session runs: a new message, so the cached prefix of the requests stays as it was), and
// after a compaction summarised it away. The bodies stay on disk until a skill is invoked. The list keeps to a byte budget, 1% of the model's context
// window (at four bytes a token): descriptions are shortened first, then names left out, so a
// project with hundreds of skills cannot crowd out the conversation.
import type { SkillCatalog, SkillDefinition } from "../../config/skills/index.js";
import { loadedDeferredToolNames, TOOL_SEARCH_TOOL_NAME } from "../../tool/deferred.js";
import type { AttachmentContext, AttachmentSource } from "../../tool/types.js";
import { LISTING_CUT_NOTE, SKILL_TOOL_NAME } from "./prompt.js";

export const SKILL_LISTING_KIND = "skill_listing";
/** The budget when the model's window is unknown. */
export const DEFAULT_LISTING_BUDGET_BYTES = 8_000;
const MIN_LISTING_BUDGET_BYTES = 1_000;
/** Shortened descriptions keep at least this much; below it, names alone are listed. */
const MIN_DESCRIPTION_CHARS = 24;

const HEADER = `Skills you can run with the ${SKILL_TOOL_NAME} tool (name: what it is for):`;

export function listingBudget(contextWindowTokens: number | undefined): number {
  if (contextWindowTokens === undefined) return DEFAULT_LISTING_BUDGET_BYTES;
  return Math.max(MIN_LISTING_BUDGET_BYTES, Math.floor(contextWindowTokens * 4 * 0.01));
}

const bytes = (text: string) => Buffer.byteLength(text);

function shorten(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1).trimEnd()}…`;
}

function entry(skill: SkillDefinition, descriptionChars: number | undefined): string {
  const hint = skill.argumentHint ? ` (args: ${skill.argumentHint})` : "";
  if (descriptionChars === undefined) return `- ${skill.name}${hint}: ${skill.description}`;
  if (descriptionChars === 0) return `- ${skill.name}`;
  return `- ${skill.name}${hint}: ${shorten(skill.description, descriptionChars)}`;
}

/** The skills the model may invoke (a user-only skill is not announced). */
export function modelInvocableSkills(catalog: SkillCatalog): SkillDefinition[] {
  return catalog.skills.filter((skill) => !skill.disableModelInvocation);
}

/** The listing within `budget` bytes, or undefined when there is nothing to list. */
export function skillListingText(catalog: SkillCatalog, budget: number): string | undefined {
  const skills = modelInvocableSkills(catalog);
  if (skills.length === 0) return undefined;
  const build = (lines: string[]) => [HEADER, ...lines].join("\n");
  const full = build(skills.map((skill) => entry(skill, undefined)));
  if (bytes(full) <= budget) return full;
  // Every name with an equal share of what remains for descriptions.
  const namesOnly = skills.map((skill) => entry(skill, 0));
  // Per entry ": " and the ellipsis (three bytes for one character) come on top of the share.
  const spare = budget - bytes(build(namesOnly)) - skills.length * 4;
  const share = Math.floor(spare / skills.length);
  if (share >= MIN_DESCRIPTION_CHARS) {
    const shortened = build(skills.map((skill) => entry(skill, share)));
    if (bytes(shortened) <= budget) return shortened;
  }
  // Names alone, as many as fit, and a note that the list was cut.
  const note = `- … ${LISTING_CUT_NOTE}`;
  const lines: string[] = [];
  let size = bytes(HEADER) + bytes(note) + 2;
  for (const line of namesOnly) {
    if (size + bytes(line) + 1 > budget) break;
    lines.push(line);
    size += bytes(line) + 1;
  }
  return build(lines.length === namesOnly.length ? lines : [...lines, note]);
}

/**
 * The listing as a reminder source the Skill tool brings: `current` is the tool's catalog as it is
 * now, `refresh` reads the folders again first when they changed. A `deferred` tool (one that
 * joined the session after its first request, see createSkillTool) is not in the requests' tools
 * until ToolSearch loads it: until then the listing says so.
 */
export function skillListingSource(
  current: () => SkillCatalog,
  refresh: () => Promise<void> = async () => undefined,
  deferred = false,
): AttachmentSource {
  // What each session was last told (a tool, and so its source, can serve several sessions of a
  // process); null: that there was nothing to list.
  const told = new Map<string, string | null>();
  const text = (contextWindow: number | undefined) => skillListingText(current(), listingBudget(contextWindow));
  const withLoadHint = (listing: string, context: AttachmentContext["context"]) =>
    deferred && !loadedDeferredToolNames(context.getAppState()).has(SKILL_TOOL_NAME)
      ? `${listing}\n${DEFERRED_LOAD_HINT}`
      : listing;
  return {
    kind: SKILL_LISTING_KIND,
    async collect({ context, contextUsage }) {
      await refresh();
      const session = context.options.sessionId;
      const listing = text(contextUsage?.contextWindow) ?? null;
      const before = told.get(session);
      told.set(session, listing);
      if (before === undefined) return listing === null ? undefined : [{ text: withLoadHint(listing, context) }];
      if (listing === before) return undefined;
      return [{ text: listing === null ? NO_SKILLS_LEFT : withLoadHint(`${LISTING_CHANGED}\n${listing}`, context) }];
    },
    afterCompaction({ context, contextUsage }) {
      const listing = text(contextUsage?.contextWindow);
      return listing === undefined ? undefined : withLoadHint(listing, context);
    },
  };
}

/** Ends the listing while a deferred Skill tool is not loaded. */
export const DEFERRED_LOAD_HINT = `The ${SKILL_TOOL_NAME} tool joined this session after it started: load it with ${TOOL_SEARCH_TOOL_NAME} ("select:${SKILL_TOOL_NAME}") before running a skill.`;

export const LISTING_CHANGED = "The list of skills changed (skills were added, edited or removed). It is now:";
const NO_SKILLS_LEFT = `The skills listed before were removed: there are no skills to run with the ${SKILL_TOOL_NAME} tool now.`;
