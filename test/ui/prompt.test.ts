// The prompt component through ink-testing-library: what a person types, as raw terminal bytes,
// and what the prompt shows and sends. Writes are spaced (ink-testing-library drops keystrokes
// written less than ~30 ms apart).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { render } from "ink-testing-library";
import { createElement } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { customCommandEntries, suggestCommands as suggestFrom } from "../../src/ui/commands/custom-commands.js";
import type { SlashCommand } from "../../src/ui/commands/slash-commands.js";
import { type CommandSuggestion, Prompt } from "../../src/ui/components/Prompt.js";
import { completeMention, mentionTokens } from "../../src/ui/input/file-mentions.js";
import type { KeyName } from "../../src/ui/input/keys.js";

const suggestCommands = (text: string, commands: CommandSuggestion[]) =>
  suggestFrom(
    text,
    commands.map((c): SlashCommand => ({ ...c, run: () => undefined })),
  );
/** The listed command the prompt has chosen (marked with ❯), or undefined. */
const chosenIn = (frame: string | undefined) => /❯ \/([\w:.-]+)/.exec(frame ?? "")?.[1];

const pause = () => new Promise((r) => setTimeout(r, 60));

const COMMANDS: CommandSuggestion[] = [
  { name: "help", description: "Show the commands" },
  { name: "clear", description: "Start a new conversation" },
  { name: "compact", argumentHint: "[instructions]", description: "Summarise the conversation" },
  { name: "cost", description: "Tokens and cost" },
  { name: "scaffold", argumentHint: "<file>", description: "Make a file (project command)" },
  { name: "tidy", description: "Tidy the imports (project skill)" },
];

function mount(
  props: { history?: string[]; cwd?: string; commands?: boolean | CommandSuggestion[]; maxSuggestions?: number } = {},
) {
  const list = Array.isArray(props.commands) ? props.commands : COMMANDS;
  const sent: string[] = [];
  const other: Array<{ name: KeyName; empty: boolean }> = [];
  const app = render(
    createElement(Prompt, {
      onSubmit: (prompt: string) => sent.push(prompt),
      onOtherKey: (name: KeyName, empty: boolean) => other.push({ name, empty }),
      history: props.history,
      completeMention: props.cwd ? (partial: string) => completeMention(partial, props.cwd as string) : undefined,
      suggestCommands: props.commands ? (text: string) => suggestCommands(text, list) : undefined,
      maxSuggestions: props.maxSuggestions,
    }),
  );
  const keys = async (...chunks: string[]) => {
    for (const chunk of chunks) {
      app.stdin.write(chunk);
      await pause();
    }
  };
  return { app, sent, other, keys };
}

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe("Prompt", () => {
  it("keeps every command's description in view when one argument hint is very long", async () => {
    const longHint = "[install|uninstall|enable|disable <name@marketplace> | marketplace add <source> | reload]";
    const { app, keys } = mount({
      commands: [...COMMANDS, { name: "plugin", argumentHint: longHint, description: "Manage plugins" }],
    });
    unmount = app.unmount;
    await pause();
    await keys("/");
    const frame = app.lastFrame() ?? "";
    for (const description of ["Show the commands", "Summarise the conversation", "Manage plugins"]) {
      expect(frame).toContain(description);
    }
    expect(frame).toContain("/plugin [install");
    expect(frame).toContain("…");
  });

  it("shows what is typed and sends it on Enter, then empties", async () => {
    const { app, sent, keys } = mount();
    unmount = app.unmount;
    await pause();
    await keys("fix the bug");
    expect(app.lastFrame()).toContain("> fix the bug");
    await keys("\r");
    expect(sent).toEqual(["fix the bug"]);
    expect(app.lastFrame()).not.toContain("fix the bug");
  });

  it("edits: backspace, cursor moves and insertion, Ctrl+U", async () => {
    const { app, sent, keys } = mount();
    unmount = app.unmount;
    await pause();
    await keys("helo", "\x1b[D", "l", "\x7f\x7f", "ll", "\r");
    // "helo" → cursor before "o" → "hello" → two backspaces remove "ll" → "heo" → "hello".
    expect(sent).toEqual(["hello"]);
    await keys("throw away", "\x15", "kept", "\r");
    expect(sent).toEqual(["hello", "kept"]);
  });

  it("takes several lines: Alt+Enter, Ctrl+J, and a backslash before Enter", async () => {
    const { app, sent, keys } = mount();
    unmount = app.unmount;
    await pause();
    await keys("one", "\x1b\r", "two", "\n", "three\\", "\r", "four");
    const frame = app.lastFrame() ?? "";
    expect(frame).toContain("> one");
    expect(frame).toContain("  two");
    expect(frame).toContain("  four");
    await keys("\r");
    expect(sent).toEqual(["one\ntwo\nthree\nfour"]);
  });

  it("walks the history with up and down, keeping the unsent draft", async () => {
    const { app, sent, keys } = mount({ history: ["first", "second"] });
    unmount = app.unmount;
    await pause();
    await keys("draft", "\x1b[A");
    expect(app.lastFrame()).toContain("> second");
    await keys("\x1b[A");
    expect(app.lastFrame()).toContain("> first");
    await keys("\x1b[B", "\x1b[B");
    expect(app.lastFrame()).toContain("> draft");
    await keys("\x1b[A", "\r");
    expect(sent).toEqual(["second"]);
  });

  it("collapses a long bracketed paste behind a marker and sends it whole", async () => {
    const { app, sent, keys } = mount();
    unmount = app.unmount;
    await pause();
    const pasted = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n");
    await keys("look: ", `\x1b[200~${pasted}\x1b[201~`);
    const frame = app.lastFrame() ?? "";
    expect(frame).toContain("[Pasted text #1 +12 lines]");
    expect(frame).not.toContain("line 7");
    await keys("\r");
    expect(sent).toEqual([`look: ${pasted}`]);
  });

  it("counts a pasted file's lines without the empty one after its final newline", async () => {
    const { app, sent, keys } = mount();
    unmount = app.unmount;
    await pause();
    // Copied from an editor or `cat`: every line ends with its newline.
    const pasted = Array.from({ length: 12 }, (_, i) => `line ${i + 1}\n`).join("");
    await keys(`\x1b[200~${pasted}\x1b[201~`);
    expect(app.lastFrame()).toContain("[Pasted text #1 +12 lines]");
    await keys("\r");
    // Three lines with their newlines are as short as three without: they go in as they are.
    await keys("\x1b[200~a\nb\nc\n\x1b[201~");
    expect(app.lastFrame()).not.toContain("Pasted text");
    expect(sent).toEqual([pasted]);
  });

  it("a short paste goes in as it is; backspace removes a marker whole", async () => {
    const { app, sent, keys } = mount();
    unmount = app.unmount;
    await pause();
    await keys("\x1b[200~short\x1b[201~", "\r");
    expect(sent).toEqual(["short"]);
    const long = "x\n".repeat(10);
    await keys(`\x1b[200~${long}\x1b[201~`);
    expect(app.lastFrame()).toContain("[Pasted text #1");
    await keys("\x7f");
    expect(app.lastFrame()).not.toContain("Pasted");
  });

  it("hands ESC, Shift+Tab, Ctrl+C and Ctrl+D to the session, saying whether the prompt is empty", async () => {
    const { app, other, keys } = mount();
    unmount = app.unmount;
    await pause();
    await keys("\x1b[Z", "\x03", "a", "\x04");
    // A lone ESC is told apart from the start of a sequence after a short wait.
    await keys("\x1b");
    await pause();
    expect(other).toEqual([
      { name: "shiftTab", empty: true },
      { name: "ctrlC", empty: true },
      { name: "ctrlD", empty: false },
      { name: "escape", empty: false },
    ]);
  });

  it("clears a draft on Ctrl+C (saying the prompt was not empty) and keeps it in the history", async () => {
    const { app, other, keys } = mount();
    unmount = app.unmount;
    await pause();
    await keys("half a thought");
    await keys("\x03");
    expect(app.lastFrame()).not.toContain("half a thought");
    expect(other).toEqual([{ name: "ctrlC", empty: false }]);
    await keys("\x1b[A");
    expect(app.lastFrame()).toContain("half a thought");
  });

  it("completes an @path with Tab from the working directory and lists several candidates", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "warden-mention-"));
    mkdirSync(join(cwd, "src"));
    writeFileSync(join(cwd, "src", "greet.ts"), "x");
    writeFileSync(join(cwd, "src", "grid.ts"), "x");
    const { app, sent, keys } = mount({ cwd });
    unmount = app.unmount;
    await pause();
    await keys("look at @sr", "\t");
    expect(app.lastFrame()).toContain("> look at @src/");
    await keys("g", "\t");
    const frame = app.lastFrame() ?? "";
    expect(frame).toContain("src/greet.ts");
    expect(frame).toContain("src/grid.ts");
    await keys("e", "\t", "\r");
    expect(sent).toEqual(["look at @src/greet.ts"]);
    expect(mentionTokens(sent[0] as string)).toEqual(["src/greet.ts"]);
    expect(mentionTokens('mail me@example.com about @"my notes.md" and @a.ts')).toEqual(["my notes.md", "a.ts"]);
  });

  it("lists the commands a `/` could be; up/down choose one, wrapping around, and typing starts again at the first", async () => {
    const { app, keys } = mount({ commands: true });
    unmount = app.unmount;
    await pause();
    await keys("/");
    const frame = app.lastFrame() ?? "";
    for (const c of COMMANDS) expect(frame).toContain(`/${c.name}`);
    expect(chosenIn(frame)).toBe("help");
    await keys("\x1b[B", "\x1b[B");
    expect(chosenIn(app.lastFrame())).toBe("compact");
    await keys("\x1b[A");
    expect(chosenIn(app.lastFrame())).toBe("clear");
    await keys("\x1b[A", "\x1b[A");
    expect(chosenIn(app.lastFrame())).toBe("tidy");
    // Up/down moved the choice, not through the history: the prompt still holds "/".
    expect(app.lastFrame()).toMatch(/^> \/ ?$/m);
    await keys("c");
    const narrowed = app.lastFrame() ?? "";
    expect(narrowed).not.toContain("/help");
    expect(chosenIn(narrowed)).toBe("clear");
  });

  it("lists a plugin's namespaced command under its short name too, after the whole-name matches", () => {
    const list: CommandSuggestion[] = [
      { name: "tools:greet", description: "Greets" },
      { name: "git:review", description: "Reviews" },
      { name: "graph", description: "Draws" },
    ];
    expect(suggestCommands("/gr", list).map((c) => c.name)).toEqual(["graph", "tools:greet"]);
    expect(suggestCommands("/tools:g", list).map((c) => c.name)).toEqual(["tools:greet"]);
    expect(suggestCommands("/rev", list).map((c) => c.name)).toEqual(["git:review"]);
    expect(suggestCommands("/x", list)).toEqual([]);
  });

  it("names a plugin's command as the plugin's, not as the user's own", () => {
    const entries = customCommandEntries(
      [
        { name: "tools:greet", description: "Greets", kind: "command", level: "user", plugin: "tools" },
        { name: "mine", description: "Mine", kind: "skill", level: "project" },
      ],
      [],
    );
    expect(entries.map((c) => c.description)).toEqual(["Greets (plugin tools command)", "Mine (project skill)"]);
  });

  it("Tab completes the chosen command for its arguments; Enter runs one that takes none", async () => {
    const { app, sent, keys } = mount({ commands: true });
    unmount = app.unmount;
    await pause();
    await keys("/c", "\x1b[B", "\t");
    // Completed with a space: the list is gone and arguments can follow.
    expect(app.lastFrame()).toMatch(/^> \/compact ?$/m);
    expect(chosenIn(app.lastFrame())).toBeUndefined();
    await keys("keep the plan", "\r");
    expect(sent).toEqual(["/compact keep the plan"]);
    await keys("/c", "\x1b[B", "\x1b[B", "\r");
    expect(sent).toEqual(["/compact keep the plan", "/cost"]);
    // A command whose argument is required is completed by Enter, not run without it.
    await keys("/s", "\r");
    expect(sent).toHaveLength(2);
    expect(app.lastFrame()).toMatch(/^> \/scaffold ?$/m);
    await keys("notes.md", "\r");
    expect(sent.at(-1)).toBe("/scaffold notes.md");
    // Sent commands are in the history like any prompt.
    await keys("\x1b[A");
    expect(app.lastFrame()).toContain("> /scaffold notes.md");
  });

  it("a list longer than the room it has scrolls to keep the chosen command in view", async () => {
    const { app, keys } = mount({ commands: true, maxSuggestions: 3 });
    unmount = app.unmount;
    await pause();
    await keys("/");
    let frame = app.lastFrame() ?? "";
    expect(frame).toContain("/help");
    expect(frame).toContain("/clear");
    expect(frame).not.toContain("/cost");
    expect(frame).toContain("… 4 more");
    await keys("\x1b[B", "\x1b[B", "\x1b[B");
    frame = app.lastFrame() ?? "";
    expect(chosenIn(frame)).toBe("cost");
    expect(frame).not.toContain("/help");
    expect(frame).toContain("/compact");
  });
});
