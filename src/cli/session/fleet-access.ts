// The session's fleet, when one is configured: WARDEN_REDIS_URL, else settings `fleet.redisUrl`.
// Nothing of the fleet loads here: the object below imports src/fleet/ (BullMQ, ioredis) and
// connects on the first call a tool makes, so a session that never uses it pays nothing.
import type { LoadedSettings } from "../../config/settings.js";
import { settingsValue } from "../../config/settings.js";
import type { FleetAccess } from "../../tool/fleet.js";

export function configuredFleetUrl(settings: LoadedSettings, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = env.WARDEN_REDIS_URL?.trim() || settingsValue(settings, "fleet")?.redisUrl;
  return url ? url : undefined;
}

export interface LazyFleet {
  access: FleetAccess;
  /** Closes the connection, if one was opened. */
  close(): Promise<void>;
}

export function lazyFleetAccess(url: string, warn: (message: string) => void): LazyFleet {
  type Loaded = FleetAccess & { close(): Promise<void> };
  let loading: Promise<Loaded> | undefined;
  const shownUrl = url.replace(/\/\/([^@/]*):[^@/]*@/, "//$1:***@");
  const load = (): Promise<Loaded> => {
    loading ??= (async () => {
      if (!/^rediss?:\/\//.test(url)) {
        throw new Error(
          `the fleet's Redis URL must start with redis:// or rediss:// (got ${JSON.stringify(shownUrl)})`,
        );
      }
      const { createFleetAccess } = await import("../../fleet/access.js");
      return createFleetAccess({ url, report: (line) => warn(line) });
    })();
    return loading;
  };
  const access: FleetAccess = {
    url: shownUrl,
    submit: async (job, cwd) => (await load()).submit(job, cwd),
    wait: async (id, signal, onEvent) => (await load()).wait(id, signal, onEvent),
    listTriggers: async () => (await load()).listTriggers(),
    getTrigger: async (id) => (await load()).getTrigger(id),
    createTrigger: async (trigger, cwd) => (await load()).createTrigger(trigger, cwd),
    updateTrigger: async (id, change, cwd) => (await load()).updateTrigger(id, change, cwd),
    runTrigger: async (id, cwd) => (await load()).runTrigger(id, cwd),
    upsertSchedule: async (schedule, cwd) => (await load()).upsertSchedule(schedule, cwd),
    removeSchedule: async (id) => (await load()).removeSchedule(id),
    listSchedules: async (prefix) => (await load()).listSchedules(prefix),
  };
  return {
    access,
    async close() {
      if (loading) await (await loading.catch(() => undefined))?.close();
    },
  };
}
