// `date_change`: the system prompt states the date the session started, and stays byte-stable for
// the prompt cache; a session that runs past midnight is told the new date instead.
import type { AttachmentSource } from "../../tool/types.js";

/** YYYY-MM-DD in UTC, as the system prompt writes it (src/loop/system-prompt.ts todayISODate). */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** `startDate`: the date the system prompt states. */
export function dateChangeSource(startDate: string): AttachmentSource {
  let told = startDate;
  return {
    kind: "date_change",
    collect({ now }) {
      const today = isoDate(now);
      if (today === told) return undefined;
      told = today;
      return [
        {
          text: `The date has changed: today is ${today} (the date in the system prompt is when the session started). Use it where the date matters; there is no need to mention the change.`,
        },
      ];
    },
    afterCompaction({ now }) {
      const today = isoDate(now);
      return today === startDate ? undefined : `Today's date is ${today}.`;
    },
  };
}
