// isReadOnly and isConcurrencySafe are synchronous and asked several times per call (when the
// call arrives, by the permission pipeline, again for a sibling with the same text), and each
// answer is a full parse of the command that blocks the event loop while other calls start. A
// short memory of recent "read-only" answers spares the repeats. Only "read-only" is kept: "not
// read-only" is also the placeholder answer given before the grammar has loaded, which must not
// outlive the loading.

/** Long enough to span one response's calls; short enough that a changed file system shows. */
const MEMO_TTL_MS = 2_000;
const MEMO_SIZE = 64;

const readOnlyAt = new Map<string, number>();

/** True when the command was judged read-only within the last MEMO_TTL_MS. */
export function rememberedReadOnly(command: string, now = Date.now()): boolean {
  const at = readOnlyAt.get(command);
  if (at === undefined) return false;
  if (now - at < MEMO_TTL_MS) return true;
  readOnlyAt.delete(command);
  return false;
}

/** Records a fresh answer (only a "read-only" one is kept) and returns it. */
export function rememberReadOnly(command: string, readOnly: boolean, now = Date.now()): boolean {
  if (!readOnly) return false;
  readOnlyAt.delete(command);
  readOnlyAt.set(command, now);
  // Maps iterate in insertion order: the first key is the oldest answer.
  if (readOnlyAt.size > MEMO_SIZE) readOnlyAt.delete(readOnlyAt.keys().next().value as string);
  return true;
}
