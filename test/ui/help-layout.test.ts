// /help lays its commands out in two columns; a description longer than the room beside the labels
// wraps within its column (the terminal's own wrap went on at the screen's left edge).
import { describe, expect, it } from "vitest";
import { builtinCommands, wrapWords } from "../../src/ui/commands/builtins.js";
import type { CommandContext, SlashCommand } from "../../src/ui/commands/slash-commands.js";

async function helpAt(columns: number, custom: SlashCommand[] = []): Promise<string[]> {
  const notices: string[] = [];
  const ctx = {
    columns: () => columns,
    customCommands: async () => custom,
    transcript: { addNotice: (text: string) => notices.push(text) },
  } as unknown as CommandContext;
  const help = builtinCommands().find((command) => command.name === "help") as SlashCommand;
  await help.run(ctx, "");
  return (notices[0] ?? "").split("\n");
}

describe("/help's layout", () => {
  it("keeps every command line within the terminal and wraps long descriptions in their column", async () => {
    const long = "a description long enough that it cannot fit beside its label on a terminal this narrow at all";
    const lines = await helpAt(90, [{ name: "mine", description: long, run: () => undefined }]);
    const commandLines = lines.slice(
      0,
      lines.indexOf("Keys: Enter sends · Alt+Enter, Ctrl+J or \\ then Enter: new line · ↑/↓ history"),
    );
    for (const line of commandLines) expect(line.length, line).toBeLessThanOrEqual(90);
    // The wrapped description's lines start where descriptions start.
    const first = commandLines.findIndex((line) => line.startsWith("  /mine"));
    const column = (commandLines[first] as string).indexOf("a description");
    expect(column).toBeGreaterThan(2);
    expect(commandLines[first + 1]?.slice(0, column).trim()).toBe("");
    expect(
      commandLines
        .slice(first, first + 3)
        .join(" ")
        .replace(/\s+/g, " "),
    ).toContain(long);
  });

  it("names the keys and prompt forms the session takes besides the commands", async () => {
    const keys = (await helpAt(120)).slice(-3).join("\n");
    for (const form of ["Ctrl+B", "!command", "@path", "Shift+Tab", "Esc"]) expect(keys).toContain(form);
  });

  it("leaves a description that fits on its line", async () => {
    const lines = await helpAt(200);
    expect(lines.find((line) => line.trimStart().startsWith("/exit"))).toMatch(/^ {2}\/exit +End the session$/);
  });
});

describe("wrapWords", () => {
  it("breaks at spaces within the room and keeps a longer word whole", () => {
    expect(wrapWords("one two three four", 20)).toEqual(["one two three four"]);
    expect(wrapWords("aaaa bbbb cccc dddd eeee ffff", 20)).toEqual(["aaaa bbbb cccc dddd", "eeee ffff"]);
    expect(wrapWords(`${"x".repeat(30)} y`, 20)).toEqual(["x".repeat(30), "y"]);
  });
});
