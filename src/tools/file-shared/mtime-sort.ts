// Glob and Grep list files newest first: the file just edited is the one most likely wanted.
// Ties (and files that vanished meanwhile, sorted last) fall back to alphabetical order so the
// output is stable.
import { stat } from "node:fs/promises";
import * as path from "node:path";

const STAT_BATCH = 256;

export async function sortByMtimeNewestFirst(paths: string[], baseDir: string): Promise<string[]> {
  const mtimes = new Array<number>(paths.length);
  for (let i = 0; i < paths.length; i += STAT_BATCH) {
    const batch = paths.slice(i, i + STAT_BATCH);
    const stats = await Promise.all(
      batch.map((p) =>
        stat(path.resolve(baseDir, p)).then(
          (s) => s.mtimeMs,
          () => 0,
        ),
      ),
    );
    for (let j = 0; j < stats.length; j++) mtimes[i + j] = stats[j]!;
  }
  const order = paths.map((_, i) => i);
  order.sort((a, b) => mtimes[b]! - mtimes[a]! || (paths[a]! < paths[b]! ? -1 : paths[a]! > paths[b]! ? 1 : 0));
  return order.map((i) => paths[i]!);
}
