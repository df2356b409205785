// When a file is missing, the most useful error names what the model probably meant: a file of
// the same name with another extension, a near spelling, or the same path under the cwd.
import { existsSync, readdirSync } from "node:fs";
import * as path from "node:path";

const MAX_SUGGESTIONS = 5;

export function findSimilarFiles(missingPath: string, maxSuggestions = MAX_SUGGESTIONS): string[] {
  const dir = path.dirname(missingPath);
  const wanted = path.basename(missingPath).toLowerCase();
  const wantedStem = stem(wanted);
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of entries) {
    const lower = name.toLowerCase();
    const distance = editDistance(lower, wanted);
    let score = Number.POSITIVE_INFINITY;
    if (lower === wanted) score = 0;
    else if (stem(lower) === wantedStem) score = 1;
    else if (distance <= Math.max(2, Math.floor(wanted.length / 4))) score = 1 + distance;
    else if (wantedStem.length >= 3 && lower.includes(wantedStem)) score = 10;
    if (Number.isFinite(score)) scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  return scored.slice(0, maxSuggestions).map((s) => path.join(dir, s.name));
}

/** The message tail for a missing file: similar names, or the path under cwd if that exists. */
export function missingFileHint(missingPath: string, cwd: string): string {
  const similar = findSimilarFiles(missingPath);
  const hints: string[] = [];
  if (similar.length > 0) hints.push(`Did you mean ${similar.map((s) => `"${s}"`).join(", ")}?`);
  const underCwd = path.join(cwd, path.basename(missingPath));
  if (underCwd !== missingPath && existsSync(underCwd) && !similar.includes(underCwd)) {
    hints.push(`The current working directory is ${cwd}; "${underCwd}" exists.`);
  } else if (similar.length === 0) {
    hints.push(`The current working directory is ${cwd}.`);
  }
  return hints.join(" ");
}

function stem(name: string): string {
  const ext = path.extname(name);
  return ext ? name.slice(0, -ext.length) : name;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8) return 99;
  const previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]!;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!;
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length]!;
}
