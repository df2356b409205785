// When old_string is not in the file, the place the model most likely meant: the run of lines
// most similar to old_string's lines, quoted with line numbers so the model can copy the real text
// and retry without reading the file again. Similarity is the Dice coefficient over character
// bigrams of each line with its whitespace collapsed (indentation and spacing are the usual slips),
// averaged over old_string's lines. Cost is bounded: at most about PAIR_BUDGET line comparisons,
// each on at most MAX_LINE_CHARS characters, whatever the size of the file or of old_string; a file
// too large to compare every window is searched only where old_string's words occur.

/** Line comparisons allowed for one search (file lines × old_string lines compared). */
const PAIR_BUDGET = 400_000;
/** Characters of a line that take part in the comparison. */
const MAX_LINE_CHARS = 240;
/** Below this a region is too unlike old_string to be worth quoting. */
const MIN_SIMILARITY = 0.5;
/** Lines and characters per line shown of the region. */
const MAX_SHOWN_LINES = 40;
const MAX_SHOWN_LINE_CHARS = 300;

export interface ClosestRegion {
  /** 1-based first and last line of the region. */
  startLine: number;
  endLine: number;
  /** 0..1 */
  similarity: number;
  /** The region's lines, numbered as Read numbers them. */
  quoted: string;
}

function normalize(line: string): string {
  return line.trim().replace(/\s+/g, " ").slice(0, MAX_LINE_CHARS);
}

/** The line's character bigrams, encoded as numbers and sorted (a multiset). */
function bigrams(line: string): Uint32Array {
  const out = new Uint32Array(Math.max(0, line.length - 1));
  for (let i = 0; i < out.length; i++) out[i] = ((line.charCodeAt(i) << 16) | line.charCodeAt(i + 1)) >>> 0;
  return out.sort();
}

function dice(a: string, aGrams: Uint32Array, b: string, bGrams: Uint32Array): number {
  if (a === b) return 1;
  if (aGrams.length === 0 || bGrams.length === 0) return 0;
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < aGrams.length && j < bGrams.length) {
    const x = aGrams[i] as number;
    const y = bGrams[j] as number;
    if (x === y) {
      common++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return (2 * common) / (aGrams.length + bGrams.length);
}

/** Which of old_string's lines to compare: all when the budget allows, else evenly spread non-blank ones. */
function sampledOffsets(oldLines: string[], budgetPerWindow: number): number[] {
  const nonBlank = oldLines.flatMap((line, index) => (line ? [index] : []));
  if (nonBlank.length <= budgetPerWindow) return nonBlank;
  const step = nonBlank.length / budgetPerWindow;
  return Array.from({ length: budgetPerWindow }, (_, k) => nonBlank[Math.floor(k * step)] as number);
}

/** Files up to this many lines have every window scored; larger ones only where words match. */
const FULL_SCAN_MAX_LINES = 20_000;
/** Windows scored at most when only those sharing a word with old_string are considered. */
const MAX_CANDIDATE_WINDOWS = 20_000;
/** Occurrences of one word of old_string followed at most. */
const MAX_HITS_PER_WORD = 2_000;

/** Start lines of the windows worth scoring in a file too large to score every window. */
function candidateStarts(content: string, lineStarts: number[], oldRaw: string[], lastStart: number): number[] {
  const starts = new Set<number>();
  const seen = new Set<string>();
  oldRaw.forEach((line, offset) => {
    for (const word of line.match(/[A-Za-z_][A-Za-z0-9_]{3,}/g) ?? []) {
      if (seen.has(`${offset}:${word}`)) continue;
      seen.add(`${offset}:${word}`);
      let at = content.indexOf(word);
      for (let hits = 0; at >= 0 && hits < MAX_HITS_PER_WORD && starts.size < MAX_CANDIDATE_WINDOWS; hits++) {
        const start = lineOf(lineStarts, at) - offset;
        if (start >= 0 && start <= lastStart) starts.add(start);
        at = content.indexOf(word, at + word.length);
      }
    }
  });
  return [...starts];
}

/** The 0-based line holding character `index`. */
function lineOf(lineStarts: number[], index: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((lineStarts[mid] as number) <= index) low = mid;
    else high = mid - 1;
  }
  return low;
}

export function findClosestRegion(content: string, oldString: string): ClosestRegion | undefined {
  const oldRaw = oldString.replace(/\n+$/, "").split("\n");
  const oldLines = oldRaw.map(normalize);
  const fileRaw = content.split("\n");
  if (fileRaw.at(-1) === "") fileRaw.pop();
  const fileCount = fileRaw.length;
  if (fileCount === 0) return undefined;
  const windowLength = oldLines.length;
  const lastStart = Math.max(0, fileCount - windowLength);

  // Every window when the budget allows; in a larger file, only windows where a word of
  // old_string sits on the line it would sit on (a near miss nearly always keeps one name).
  const scoreEvery = fileCount <= FULL_SCAN_MAX_LINES;
  let starts: Iterable<number>;
  let offsets: number[];
  if (scoreEvery) {
    starts = {
      [Symbol.iterator]: function* () {
        for (let start = 0; start <= lastStart; start++) yield start;
      },
    };
    offsets = sampledOffsets(oldLines, Math.max(1, Math.floor(PAIR_BUDGET / fileCount)));
  } else {
    const lineStarts = [0];
    for (let at = content.indexOf("\n"); at >= 0; at = content.indexOf("\n", at + 1)) lineStarts.push(at + 1);
    const candidates = candidateStarts(content, lineStarts, oldRaw, lastStart);
    starts = candidates;
    offsets = sampledOffsets(oldLines, Math.max(1, Math.floor(PAIR_BUDGET / Math.max(1, candidates.length))));
  }
  if (offsets.length === 0) return undefined;

  // Line profiles are computed on first use: a candidate search touches few lines.
  const fileLines: Array<string | undefined> = [];
  const fileGrams: Array<Uint32Array | undefined> = [];
  const profile = (at: number): [string, Uint32Array] => {
    let line = fileLines[at];
    let grams = fileGrams[at];
    if (line === undefined || grams === undefined) {
      line = normalize(fileRaw[at] as string);
      grams = bigrams(line);
      fileLines[at] = line;
      fileGrams[at] = grams;
    }
    return [line, grams];
  };
  const oldGrams = new Map(offsets.map((offset) => [offset, bigrams(oldLines[offset] as string)]));

  let best = { start: -1, score: 0 };
  for (const start of starts) {
    let sum = 0;
    for (const offset of offsets) {
      const at = start + offset;
      if (at >= fileCount) continue;
      const [line, grams] = profile(at);
      sum += dice(line, grams, oldLines[offset] as string, oldGrams.get(offset) as Uint32Array);
    }
    const score = sum / offsets.length;
    if (score > best.score || (score === best.score && start < best.start)) best = { start, score };
  }
  if (best.start < 0 || best.score < MIN_SIMILARITY) return undefined;

  const endIndex = Math.min(fileCount, best.start + windowLength) - 1;
  const shownEnd = Math.min(endIndex, best.start + MAX_SHOWN_LINES - 1);
  const quoted = fileRaw
    .slice(best.start, shownEnd + 1)
    .map((line, k) => {
      const text = line.length > MAX_SHOWN_LINE_CHARS ? `${line.slice(0, MAX_SHOWN_LINE_CHARS)}…` : line;
      return `${best.start + k + 1}\t${text}`;
    })
    .join("\n");
  return {
    startLine: best.start + 1,
    endLine: endIndex + 1,
    similarity: best.score,
    quoted: shownEnd < endIndex ? `${quoted}\n… (${endIndex - shownEnd} more lines)` : quoted,
  };
}

/** The sentence appended to Edit's "not found" error, or "" when nothing in the file is close. */
export function closestRegionHint(content: string, oldString: string): string {
  const region = findClosestRegion(content, oldString);
  if (!region) return "";
  const lines =
    region.startLine === region.endLine ? `line ${region.startLine}` : `lines ${region.startLine}-${region.endLine}`;
  return `\nThe most similar text in the file is at ${lines} (${Math.round(region.similarity * 100)}% similar); if that is the place you meant, copy old_string from it exactly (without the line-number prefixes):\n${region.quoted}`;
}
