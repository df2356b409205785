// ripgrep's output (run with --null) as records: the file each line belongs to, and the line as
// the model reads it ("path:12:text", "path-13-context", "path:3" for counts, "path" for files).

export interface GrepRecord {
  /** The path as rg printed it (relative to the search's cwd, or absolute). */
  path?: string;
  display: string;
}

function tidy(path: string, stripDotSlash: boolean): string {
  return stripDotSlash && path.startsWith("./") ? path.slice(2) : path;
}

export function parseFileList(lines: string[], stripDotSlash: boolean): GrepRecord[] {
  // One path per line (-l runs without --null, see args.ts).
  return lines
    .filter((p) => p !== "")
    .map((p) => {
      const path = tidy(p, stripDotSlash);
      return { path, display: path };
    });
}

export function parseCounts(lines: string[], stripDotSlash: boolean): GrepRecord[] {
  return lines
    .filter((line) => line.includes("\0"))
    .map((line) => {
      const cut = line.indexOf("\0");
      const path = tidy(line.slice(0, cut), stripDotSlash);
      return { path, display: `${path}:${line.slice(cut + 1)}` };
    });
}

export function parseContent(lines: string[], stripDotSlash: boolean, lineNumbers: boolean): GrepRecord[] {
  const records: GrepRecord[] = [];
  for (const line of lines) {
    const cut = line.indexOf("\0");
    if (cut < 0) {
      if (line !== "") records.push({ display: line }); // "--" between context groups
      continue;
    }
    const path = tidy(line.slice(0, cut), stripDotSlash);
    const rest = line.slice(cut + 1);
    // "12:text" is a match and "12-text" a context line; without line numbers both show as "path:text".
    const numbered = lineNumbers ? /^(\d+)([:-])/.exec(rest) : null;
    records.push({ path, display: numbered ? `${path}${numbered[2]}${rest}` : `${path}:${rest}` });
  }
  return records;
}
