// The name a command word is looked up by. Several steps ask it (read-only classes, validators,
// write targets, rule matching), so it sits with the words rather than with any one of them.

/** A command name as bash looks it up: the basename of a path (`/usr/bin/../bin/rm` → `rm`). */
export function commandBaseName(name: string): string {
  const slash = name.lastIndexOf("/");
  return slash === -1 ? name : name.slice(slash + 1);
}
