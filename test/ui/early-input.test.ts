// The plain prompt drawn before the interactive UI loads (src/ui/early-input.ts): the terminal is
// in raw mode before anything is drawn (issue 39: a key typed between the drawing and raw mode was
// echoed by the terminal and again by the prompt, `> zqzq`), the prompt is drawn from the line's
// start over anything the terminal echoed while Node started, each key read is echoed once, and
// the prompt stays until the UI's first write replaces it (no blank frame between the two).
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { BRACKETED_PASTE_ON, PLAIN_PROMPT, startEarlyInput } from "../../src/ui/early-input.js";

/** A terminal that records, in order, raw-mode changes and what is written to it. */
function recordingTerminal() {
  const log: string[] = [];
  const stdin = Object.assign(new EventEmitter(), {
    setRawMode(on: boolean) {
      log.push(`raw ${on}`);
      return stdin;
    },
    setEncoding: () => stdin,
    resume: () => stdin,
    pause: () => stdin,
  });
  const stdout = Object.assign(new EventEmitter(), {
    columns: 80,
    write(text: string) {
      log.push(`write ${JSON.stringify(text)}`);
      return true;
    },
  });
  const terminal = {
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
  };
  return { log, terminal, type: (text: string) => stdin.emit("data", text) };
}

describe("the early plain prompt", () => {
  it("turns raw mode on before it draws anything", () => {
    const { log, terminal } = recordingTerminal();
    startEarlyInput(terminal, () => undefined);
    expect(log[0]).toBe("raw true");
    expect(log.filter((entry) => entry.startsWith("write"))).toHaveLength(1);
  });

  it("draws the prompt from the line's start, over what the terminal echoed before raw mode", () => {
    const { log, terminal } = recordingTerminal();
    startEarlyInput(terminal, () => undefined);
    expect(log[1]).toBe(`write ${JSON.stringify(`${BRACKETED_PASTE_ON}\r\x1b[K${PLAIN_PROMPT}`)}`);
  });

  it("echoes each key once and hands every byte over to the UI", () => {
    const { log, terminal, type } = recordingTerminal();
    const early = startEarlyInput(terminal, () => undefined);
    type("zq");
    const echoes = log.filter((entry) => entry === `write ${JSON.stringify("zq")}`);
    expect(echoes).toHaveLength(1);
    expect(early.handOver()).toBe("zq");
  });

  it("hands over an Enter typed while the terminal was still cooked (a newline there) as an Enter", () => {
    const { terminal, type } = recordingTerminal();
    const early = startEarlyInput(terminal, () => undefined);
    // Cooked mode turned Enter into "\n"; the UI would have read Ctrl+J and kept the line unsent.
    type("say hi\n");
    type("\x1b[200~one\r\ntwo\x1b[201~");
    expect(early.handOver()).toBe("say hi\r\x1b[200~one\r\ntwo\x1b[201~");
  });

  it("leaves the prompt on screen at hand-over and wipes it in the UI's first write", () => {
    const { log, terminal, type } = recordingTerminal();
    const early = startEarlyInput(terminal, () => undefined);
    type("zq");
    const before = log.length;
    early.handOver();
    expect(log.slice(before)).toEqual([]);
    terminal.stdout.write("FRAME");
    terminal.stdout.write("NEXT");
    expect(log.slice(before)).toEqual([`write ${JSON.stringify("\r\x1b[JFRAME")}`, `write ${JSON.stringify("NEXT")}`]);
  });

  it("wipes once through a write that someone wrapped after the hand-over, and keeps their wrapper", () => {
    const { log, terminal } = recordingTerminal();
    const early = startEarlyInput(terminal, () => undefined);
    early.handOver();
    const before = log.length;
    const inner = terminal.stdout.write;
    const seen: string[] = [];
    const wrapper = ((text: string) => {
      seen.push(text);
      return inner.call(terminal.stdout, text);
    }) as NodeJS.WriteStream["write"];
    terminal.stdout.write = wrapper;
    terminal.stdout.write("FRAME");
    terminal.stdout.write("NEXT");
    expect(terminal.stdout.write).toBe(wrapper);
    expect(seen).toEqual(["FRAME", "NEXT"]);
    expect(log.slice(before)).toEqual([`write ${JSON.stringify("\r\x1b[JFRAME")}`, `write ${JSON.stringify("NEXT")}`]);
  });
});
