// Keyword search over deferred tools. Pure functions over plain data so the ranking can be checked
// against a table and reused outside the tool (e.g. a UI that previews what a query would load).

/** What the search needs to know about a tool. */
export interface SearchableTool {
  name: string;
  description: string;
  searchHint?: string;
  /** MCP tools score higher on name matches: their names carry the server, a stronger signal. */
  isMcp: boolean;
}

/** The reference's weights, highest signal first. */
export const SEARCH_WEIGHTS = {
  exactNamePartMcp: 12,
  exactNamePart: 10,
  partialNamePartMcp: 6,
  partialNamePart: 5,
  searchHint: 4,
  fullNameFallback: 3,
  descriptionWord: 2,
} as const;

export type ParsedQuery =
  | { kind: "select"; names: string[] }
  | { kind: "serverPrefix"; prefix: string }
  | { kind: "keywords"; terms: string[]; required: string[] };

export function parseQuery(query: string): ParsedQuery {
  const trimmed = query.trim();
  if (/^select:/i.test(trimmed)) {
    const names = trimmed
      .slice("select:".length)
      .split(",")
      .map((n) => n.trim())
      .filter((n) => n.length > 0);
    return { kind: "select", names };
  }
  if (/^mcp__\S+$/i.test(trimmed)) return { kind: "serverPrefix", prefix: trimmed.toLowerCase() };
  const words = trimmed
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0);
  const required: string[] = [];
  const terms: string[] = [];
  for (const word of words) {
    const term = word.startsWith("+") ? word.slice(1) : word;
    if (term.length === 0) continue;
    if (word.startsWith("+")) required.push(term);
    terms.push(term);
  }
  return { kind: "keywords", terms, required };
}

/**
 * The words of a tool's name, lower-cased: `mcp__github__createIssue` → github, create, issue;
 * `NotebookEdit` → notebook, edit. The `mcp` marker itself is not a word of the name.
 */
export function splitToolName(name: string): string[] {
  const withoutMarker = name.startsWith("mcp__") ? name.slice("mcp__".length) : name;
  return withoutMarker
    .split(/__|[_\-.\s]+/)
    .flatMap((piece) => piece.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/))
    .map((part) => part.toLowerCase())
    .filter((part) => part.length > 0);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// Compiled once per term, not once per tool: a query is scored against every deferred tool.
const wordPatterns = new Map<string, RegExp>();

function containsWord(haystack: string, term: string): boolean {
  let pattern = wordPatterns.get(term);
  if (!pattern) {
    if (wordPatterns.size > 256) wordPatterns.clear();
    pattern = new RegExp(`\\b${escapeRegExp(term)}\\b`, "i");
    wordPatterns.set(term, pattern);
  }
  return pattern.test(haystack);
}

function termMatchesAnywhere(tool: SearchableTool, parts: string[], term: string): boolean {
  return (
    parts.some((p) => p.includes(term)) ||
    tool.name.toLowerCase().includes(term) ||
    tool.searchHint?.toLowerCase().includes(term) === true ||
    tool.description.toLowerCase().includes(term)
  );
}

/** One term's score against one tool. */
export function scoreTerm(tool: SearchableTool, parts: string[], term: string): number {
  let score = 0;
  if (parts.includes(term)) {
    score += tool.isMcp ? SEARCH_WEIGHTS.exactNamePartMcp : SEARCH_WEIGHTS.exactNamePart;
  } else if (parts.some((p) => p.includes(term))) {
    score += tool.isMcp ? SEARCH_WEIGHTS.partialNamePartMcp : SEARCH_WEIGHTS.partialNamePart;
  } else if (tool.name.toLowerCase().includes(term)) {
    // A term spanning the name's separators ("create_issue", "notebookedit") still names the tool.
    score += SEARCH_WEIGHTS.fullNameFallback;
  }
  if (tool.searchHint && containsWord(tool.searchHint, term)) score += SEARCH_WEIGHTS.searchHint;
  if (containsWord(tool.description, term)) score += SEARCH_WEIGHTS.descriptionWord;
  return score;
}

export interface ScoredTool {
  name: string;
  score: number;
}

/**
 * Ranks tools for a keyword query: tools missing a `+required` term are out, the rest score the
 * sum over all terms, zero scores are dropped, ties go by name so the answer is deterministic.
 */
export function rankTools(tools: readonly SearchableTool[], terms: string[], required: string[]): ScoredTool[] {
  const scored: ScoredTool[] = [];
  for (const tool of tools) {
    const parts = splitToolName(tool.name);
    if (!required.every((term) => termMatchesAnywhere(tool, parts, term))) continue;
    const score = terms.reduce((sum, term) => sum + scoreTerm(tool, parts, term), 0);
    if (score > 0) scored.push({ name: tool.name, score });
  }
  return scored.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export interface SearchOutcome {
  /** Names found, best first. */
  matches: string[];
  /** Names asked for with select: that no tool has. */
  missing: string[];
}

/**
 * Answers a ToolSearch query: `select:A,B` picks by name (case-insensitive); an exact tool name
 * returns that tool; `mcp__server` returns every tool of that server; anything else is a keyword
 * search limited to maxResults.
 */
export function searchTools(tools: readonly SearchableTool[], query: string, maxResults: number): SearchOutcome {
  const parsed = parseQuery(query);
  const byLowerName = new Map(tools.map((t) => [t.name.toLowerCase(), t.name]));
  if (parsed.kind === "select") {
    const matches: string[] = [];
    const missing: string[] = [];
    for (const wanted of parsed.names) {
      const found = byLowerName.get(wanted.toLowerCase());
      if (found === undefined) missing.push(wanted);
      else if (!matches.includes(found)) matches.push(found);
    }
    return { matches, missing };
  }
  const exact = byLowerName.get(query.trim().toLowerCase());
  if (exact !== undefined) return { matches: [exact], missing: [] };
  if (parsed.kind === "serverPrefix") {
    // `mcp__git` means the server "git", not every server whose name starts with "git".
    const serverPrefix = parsed.prefix.endsWith("__") ? parsed.prefix : `${parsed.prefix}__`;
    const names = tools.map((t) => t.name).sort();
    const ofServer = names.filter((name) => name.toLowerCase().startsWith(serverPrefix));
    const matches =
      ofServer.length > 0 ? ofServer : names.filter((name) => name.toLowerCase().startsWith(parsed.prefix));
    return { matches, missing: [] };
  }
  const ranked = rankTools(tools, parsed.terms, parsed.required);
  return { matches: ranked.slice(0, maxResults).map((r) => r.name), missing: [] };
}
