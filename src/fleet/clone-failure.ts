// Which failures of `git clone` no retry can mend. BullMQ tries a failed job again (five attempts,
// growing delays): right for a network cut or a server that is down for a while, wasted on a
// repository that is not there or credentials that are refused, whose job only fails later with
// the same reason. Judged from git's own message; anything not known to be permanent is tried again.

/** git's (and ssh's, curl's) words for a repository that cannot be cloned as the job names it. */
const PERMANENT = [
  // A local path or a server's answer: no such repository.
  /repository '[^']*' does not exist/i,
  /does not appear to be a git repository/i,
  /not a git repository/i,
  /repository '[^']*' not found/i,
  /repository not found/i,
  // (A host name that does not resolve is not here: git says the same when the resolver is down
  // for a moment, and a job a DNS blip failed for good would be lost.)
  // Credentials a worker has no way to give, or refused ones.
  /authentication failed/i,
  /terminal prompts disabled/i,
  /could not read (username|password)/i,
  /permission denied \(publickey/i,
  /host key verification failed/i,
  // A transport the worker does not allow for this kind of repository.
  /transport '[^']*' not allowed/i,
  // The server refused the request itself (not a rate limit or a timeout).
  /the requested url returned error: 40[0134]\b/i,
];

export function isPermanentCloneFailure(message: string): boolean {
  return PERMANENT.some((pattern) => pattern.test(message));
}
