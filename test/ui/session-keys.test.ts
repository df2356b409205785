// Ctrl+C as the session takes it: on an idle prompt holding a draft it only clears the prompt (the
// prompt does that), so it neither arms nor completes the exit; on an empty prompt, twice exits.
import { expect, it } from "vitest";
import { handleSessionKey, type SessionKeyContext } from "../../src/ui/app/session-keys.js";
import { TranscriptModel } from "../../src/ui/transcript/transcript-model.js";

function keysContext(): SessionKeyContext & { exits: number; hints: Array<string | undefined> } {
  const context = {
    busy: false,
    engine: undefined,
    commands: undefined,
    sideAbort: undefined,
    cycleMode: () => undefined,
    exit: () => {
      context.exits++;
    },
    transcript: new TranscriptModel(() => [], "/tmp"),
    ctrlCAt: { current: 0 },
    setHint: (hint: string | undefined) => void context.hints.push(hint),
    exits: 0,
    hints: [] as Array<string | undefined>,
  };
  return context;
}

it("Ctrl+C that cleared a draft does not count toward exiting", () => {
  const keys = keysContext();
  handleSessionKey("ctrlC", false, keys);
  handleSessionKey("ctrlC", false, keys);
  expect(keys.exits).toBe(0);
  expect(keys.hints).toEqual([]);
  handleSessionKey("ctrlC", true, keys);
  expect(keys.hints[0]).toBe("Press Ctrl+C again to exit");
  handleSessionKey("ctrlC", true, keys);
  expect(keys.exits).toBe(1);
});
