// A job's id names its folder on the worker (`job-<id>-<run>`) and is printed on operators'
// terminals. BullMQ lets whoever writes to Redis choose it, and a signed job may be queued again
// as it is under any id (the signature does not name it): so a worker takes only ids of the
// shapes the fleet itself makes (BullMQ's counter, `repeat:<scheduler>:<time>` of a schedule),
// never one with a path separator, a control character or an unbounded length.
const FLEET_JOB_ID = /^[A-Za-z0-9][A-Za-z0-9:_.-]{0,199}$/;

export function isFleetJobId(id: string): boolean {
  return FLEET_JOB_ID.test(id);
}

/** The id as a person may see it: a hostile one quoted with its control characters escaped. */
export function shownJobId(id: string): string {
  return isFleetJobId(id) ? id : JSON.stringify(id.slice(0, 200));
}
