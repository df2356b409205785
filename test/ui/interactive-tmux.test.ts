// The interactive session as a person meets it: the built binary in a real terminal (tmux),
// against the replay provider, keys sent and the screen read back. Each test checks what the
// person sees and what the session did (settings written, the transcript the model was sent,
// processes left running).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectDataDir } from "../../src/config/paths.js";
import { TmuxTerminal, terminalsKilledAfterEach } from "../helpers/tmux.js";
import { tempDir, text, toolUse, writeScript } from "../loop/helpers.js";

const terminals = terminalsKilledAfterEach();

interface Project {
  home: string;
  cwd: string;
  script: string;
  /** Starts warden in the project (another replay script for a second process: each starts at its first turn). */
  start(extraArgs?: string[], env?: Record<string, string>, scriptPath?: string): TmuxTerminal;
}

function project(turns: object[], files: Record<string, string> = {}): Project {
  const home = tempDir("warden-tui-home-");
  const cwd = tempDir("warden-tui-project-");
  const script = writeScript(tempDir("warden-tui-script-"), turns);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(cwd, name, ".."), { recursive: true });
    writeFileSync(join(cwd, name), content);
  }
  return {
    home,
    cwd,
    script,
    start(extraArgs = [], env = {}, scriptPath = script) {
      const terminal = TmuxTerminal.start({
        cwd,
        args: ["--model", `replay:${scriptPath}`, ...extraArgs],
        env: { WARDEN_HOME: home, HOME: home, ...env },
      });
      terminals.push(terminal);
      return terminal;
    },
  };
}

/** The transcript once it holds what `until` looks for (it is written as the session goes). */
async function transcriptWhen(
  p: Project,
  until: (lines: Array<Record<string, unknown>>) => boolean,
): Promise<Array<Record<string, unknown>>> {
  const deadline = Date.now() + 10_000;
  let lines: Array<Record<string, unknown>> = [];
  while (Date.now() < deadline) {
    lines = transcriptLines(p);
    if (until(lines)) return lines;
    await new Promise((r) => setTimeout(r, 50));
  }
  return lines;
}

/** Every JSON line of the project's only transcript. */
function transcriptLines(p: Project): Array<Record<string, unknown>> {
  const dir = projectDataDir(p.cwd).replace(/^.*\/projects\//, join(p.home, "projects/"));
  const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  expect(files).toHaveLength(1);
  return readFileSync(join(dir, files[0] as string), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The status line once the session has started ("starting…" stands in for the hint before). */
const READY = /default mode \(shift\+tab to cycle\)/;

async function submit(terminal: TmuxTerminal, prompt: string): Promise<void> {
  terminal.type(prompt);
  await terminal.waitFor(prompt);
  terminal.press("Enter");
}

describe("warden in a terminal (tmux, replay provider)", () => {
  it("reads, asks before an edit, and 'don't ask again' saves the rule so the next edit does not ask", async () => {
    const p = project(
      [
        { content: [text("Reading first."), toolUse("t1", "Read", { file_path: "{{cwd}}/notes.txt" })] },
        {
          content: [
            toolUse("t2", "Edit", { file_path: "{{cwd}}/notes.txt", old_string: "alpha", new_string: "ALPHA" }),
          ],
        },
        {
          content: [toolUse("t3", "Edit", { file_path: "{{cwd}}/notes.txt", old_string: "beta", new_string: "BETA" })],
        },
        { content: [text("Both **edits** are done.")] },
      ],
      { "notes.txt": "alpha\nbeta\n" },
    );
    const t = p.start();
    await t.waitFor(READY);
    await submit(t, "shout the notes");
    const asking = await t.waitFor("Do you want to proceed?");
    expect(asking).toContain("Read(notes.txt)");
    expect(asking).toMatch(/1 - alpha/);
    expect(asking).toMatch(/1 \+ ALPHA/);
    expect(asking).toMatch(/2\. Yes, and don't ask again for Edit\(\.\/\*\*\) \(in \.warden\/settings\.local\.json\)/);
    t.type("2");
    const done = await t.waitFor("Both edits are done.");
    // The second edit ran without a question: only one prompt was ever shown.
    expect(done).not.toContain("Do you want to proceed?");
    expect(readFileSync(join(p.cwd, "notes.txt"), "utf8")).toBe("ALPHA\nBETA\n");
    const settings = JSON.parse(readFileSync(join(p.cwd, ".warden/settings.local.json"), "utf8"));
    expect(settings.permissions.allow).toEqual(["Edit(./**)"]);
  });

  it("No with feedback refuses the call and the model receives the words", async () => {
    const p = project(
      [
        { content: [toolUse("t1", "Write", { file_path: "{{cwd}}/out.txt", content: "x" })] },
        { content: [text("Understood, I will not write it.")] },
      ],
      {},
    );
    const t = p.start();
    await t.waitFor(READY);
    await submit(t, "write out.txt");
    await t.waitFor("Do you want to proceed?");
    t.type("3");
    const feedback = await t.waitFor("Tell Warden what to do differently");
    // The pointer moved to the option the digit chose.
    expect(feedback).toMatch(/❯ 3\. No/);
    t.type("use stdout instead");
    await t.waitFor("use stdout instead");
    t.press("Enter");
    await t.waitFor("Understood, I will not write it.");
    expect(existsSync(join(p.cwd, "out.txt"))).toBe(false);
    const lines = await transcriptWhen(p, (l) => JSON.stringify(l).includes("use stdout instead"));
    const results = lines.flatMap((line) => {
      const message = line.message as { content?: Array<{ type: string; content?: unknown }> } | undefined;
      return message?.content?.filter((b) => b.type === "tool_result") ?? [];
    });
    expect(JSON.stringify(results)).toContain("use stdout instead");
  });

  it("ESC during a 10-second Bash command interrupts it and leaves no process behind", async () => {
    // A leading long sleep is refused by the Bash tool (it teaches the model nothing), so one step first.
    const marker = `sleep 10.${process.pid}`;
    const p = project([
      { content: [toolUse("t1", "Bash", { command: `echo started; ${marker}` })] },
      { content: [text("never")] },
    ]);
    const t = p.start(["--allowedTools", "Bash"]);
    await t.waitFor(READY);
    await submit(t, "wait a while");
    await t.waitFor(`Bash(echo started; ${marker})`);
    await waitForProcess(marker, true);
    t.press("Escape");
    const screen = await t.waitFor("[Request interrupted by user]");
    expect(screen).not.toContain("never");
    await waitForProcess(marker, false);
    const lines = await transcriptWhen(p, (l) => JSON.stringify(l).includes("[Request interrupted by user"));
    expect(JSON.stringify(lines)).toContain("[Request interrupted by user");
  });

  it("a message typed while a tool runs is queued and reaches the model at its next turn", async () => {
    const p = project([
      { content: [toolUse("t1", "Bash", { command: "echo working; sleep 3" })] },
      { content: [text("Saw your note.")] },
    ]);
    const t = p.start(["--allowedTools", "Bash"]);
    await t.waitFor(READY);
    await submit(t, "run it");
    await t.waitFor("Bash(echo working; sleep 3)");
    await submit(t, "also check the logs");
    await t.waitFor("queued");
    await t.waitFor("Saw your note.");
    const lines = await transcriptWhen(p, (l) => JSON.stringify(l).includes("also check the logs"));
    const users = lines
      .map((line) => line.message as { role?: string; content?: Array<{ type: string; text?: string }> } | undefined)
      .filter((m) => m?.role === "user")
      .map((m) => JSON.stringify(m?.content));
    const queuedAt = users.findIndex((u) => u.includes("also check the logs"));
    const resultAt = users.findIndex((u) => u.includes("tool_result"));
    expect(queuedAt).toBeGreaterThan(resultAt);
    expect(resultAt).toBeGreaterThanOrEqual(0);
  });

  it("Ctrl+B sends a running Bash command to the background; the model goes on and the task is listed", async () => {
    const p = project([
      { content: [toolUse("t1", "Bash", { command: "echo first; sleep 30; echo second" })] },
      { content: [text("Moved on while it runs.")] },
    ]);
    const t = p.start(["--allowedTools", "Bash"]);
    await t.waitFor(READY);
    await submit(t, "start the slow thing");
    // Its first output on screen: the command runs (the call is drawn before its checks, which may
    // still be loading the shell grammar, have let it start).
    await t.waitFor(/Bash\(echo first; sleep 30; echo second\)[^\n]*\n\s+first\b/);
    t.press("C-b");
    // The command takes 30 s: the model can only have moved on within 15 s because Ctrl+B moved
    // it (a bound far from the command's end, so a loaded machine does not make this flaky).
    // Answer and footer on one screen: a capture taken while ink redraws its lower part can show the
    // answer without the footer that lists the task.
    const running = /running b[0-9a-f]+ echo first; sleep 30; echo second/;
    const screen = await t.waitFor((s) => s.includes("Moved on while it runs.") && running.test(s), 15_000);
    expect(screen).toContain("Moved the running command to the background.");
    expect(screen).toMatch(running);
    const lines = await transcriptWhen(p, (l) => JSON.stringify(l).includes("moved this command to the background"));
    expect(JSON.stringify(lines)).toContain("moved this command to the background");
  });

  it("Ctrl+B before the command has started sends it to the background as it starts", async () => {
    const p = project([
      { content: [toolUse("t1", "Bash", { command: "echo early; sleep 30; echo late" })] },
      { content: [text("Moved on before it even started.")] },
    ]);
    // A PreToolUse hook of the user's that takes 3 s: the call is drawn, its command not started.
    writeFileSync(
      join(p.home, "settings.json"),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "sleep 3" }] }] },
      }),
    );
    const t = p.start(["--allowedTools", "Bash"]);
    await t.waitFor(READY);
    await submit(t, "start the slow thing");
    await t.waitFor("Bash(echo early; sleep 30; echo late)");
    t.press("C-b");
    await t.waitFor("The command has not started yet (the checks still run)");
    // The command takes 30 s: the model moved on within 20 s only because it went to the background.
    // Both on one screen: a capture taken while ink redraws its lower part can show the answer
    // without the footer that lists the task.
    const running = /running b[0-9a-f]+ echo early; sleep 30; echo late/;
    const screen = await t.waitFor((s) => s.includes("Moved on before it even started.") && running.test(s), 20_000);
    expect(screen).toMatch(running);
    const lines = await transcriptWhen(p, (l) => JSON.stringify(l).includes("moved this command to the background"));
    expect(JSON.stringify(lines)).toContain("moved this command to the background");
  });

  it("!command runs through the Bash tool and the model reads command and output with the next prompt", async () => {
    const p = project([{ content: [text("I see the listing.")] }], { "marker-file.txt": "x" });
    const t = p.start();
    await t.waitFor(READY);
    await submit(t, "!ls");
    const screen = await t.waitFor("Bash(ls)");
    expect(screen).toContain("marker-file.txt");
    await submit(t, "what did you see?");
    await t.waitFor("I see the listing.");
    const lines = await transcriptWhen(p, (l) => JSON.stringify(l).includes("The user ran a shell command: ls"));
    expect(JSON.stringify(lines)).toContain("marker-file.txt");
  });

  it("/permissions adds a rule to the local settings and lists the rules with their sources", async () => {
    const p = project([]);
    const t = p.start(["--allowedTools", "Read"]);
    await t.waitFor(READY);
    await submit(t, "/permissions deny Bash(rm:*)");
    await t.waitFor("Added deny rule Bash(rm:*) to .warden/settings.local.json.");
    const settings = JSON.parse(readFileSync(join(p.cwd, ".warden/settings.local.json"), "utf8"));
    expect(settings.permissions.deny).toEqual(["Bash(rm:*)"]);
    await submit(t, "/permissions");
    const listing = await t.waitFor("deny (1):");
    expect(listing).toMatch(/Bash\(rm:\*\) +· localSettings/);
    expect(listing).toMatch(/Read +· cliArg/);
    await submit(t, "/agents");
    const agents = await t.waitFor("Agents (Agent tool):");
    expect(agents).toMatch(/general-purpose: /);
  });

  it("Shift+Tab cycles default → acceptEdits → plan → default, always shown in the status line", async () => {
    const p = project([]);
    const t = p.start();
    await t.waitFor(READY);
    t.press("BTab");
    await t.waitFor("accept edits on");
    t.press("BTab");
    await t.waitFor("plan mode on");
    t.press("BTab");
    await t.waitFor(READY);
  });

  it("/resume in a folder with no earlier session says so instead of opening an empty picker", async () => {
    const p = project([]);
    const t = p.start();
    await t.waitFor(READY);
    await submit(t, "/resume");
    const screen = await t.waitFor("/resume: no earlier session in");
    expect(screen.replace(/\n/g, "")).toContain(`/resume: no earlier session in ${p.cwd} to resume`);
    expect(screen).not.toContain("Resume which session?");
    // The prompt is free at once: no dialog waits for Esc.
    await submit(t, "/status");
    await t.waitFor("Folder: ");
  });

  it("`warden -r` without an id opens the session picker, as in Claude Code", async () => {
    const p = project([{ content: [text("First answer.")] }]);
    const first = p.start();
    await first.waitFor(READY);
    await submit(first, "first question");
    await first.waitFor("First answer.");
    first.press("C-d");
    expect(await first.exitCode()).toBe(0);
    const earlier = transcriptLines(p)[0]?.sessionId as string;

    // No id: the session picker opens on its own, before anything is typed.
    const second = p.start(["-r"]);
    const picker = await second.waitFor("Resume which session?");
    expect(picker).toContain(`first question  ${earlier.slice(0, 8)}`);
    second.press("Enter");
    const resumed = await second.waitFor("Resumed session");
    expect(resumed).toContain("First answer.");
  });

  it("/resume picks an earlier session of the folder and continues it", async () => {
    const p = project([{ content: [text("First answer.")] }]);
    const secondScript = writeScript(tempDir("warden-tui-script-"), [
      { content: [text("Second answer, same session.")] },
    ]);
    const first = p.start();
    await first.waitFor(READY);
    await submit(first, "first question");
    await first.waitFor("First answer.");
    first.press("C-d");
    expect(await first.exitCode()).toBe(0);
    const earlier = transcriptLines(p)[0]?.sessionId as string;

    const second = p.start([], {}, secondScript);
    await second.waitFor(READY);
    await submit(second, "/resume");
    const picker = await second.waitFor("Resume which session?");
    // Each earlier session is named by its first prompt and the start of its id.
    expect(picker).toContain(`first question  ${earlier.slice(0, 8)}`);
    second.press("Enter");
    const resumed = await second.waitFor("Resumed session");
    expect(resumed).toContain("first question");
    expect(resumed).toContain("First answer.");
    await submit(second, "and now?");
    await second.waitFor("Second answer, same session.");
    const lines = await transcriptWhen(p, (l) => JSON.stringify(l).includes("Second answer"));
    expect(lines[0]?.sessionId).toBe(earlier);
    expect(JSON.stringify(lines)).toContain("and now?");
  });

  it("--resume with the 8-character id /resume lists opens on the conversation so far and its task list", async () => {
    const todos = [
      { content: "Read the notes", activeForm: "Reading the notes", status: "completed" },
      { content: "Write the summary", activeForm: "Writing the summary", status: "in_progress" },
    ];
    const p = project([
      { content: [text("Planning first."), toolUse("w1", "TodoWrite", { todos })] },
      { content: [text("First answer.")] },
    ]);
    const first = p.start();
    await first.waitFor(READY);
    await submit(first, "first question");
    await first.waitFor("First answer.");
    first.press("C-d");
    expect(await first.exitCode()).toBe(0);
    const earlier = transcriptLines(p)[0]?.sessionId as string;

    const secondScript = writeScript(tempDir("warden-tui-script-"), [{ content: [text("Second answer.")] }]);
    const second = p.start(["--resume", earlier.slice(0, 8)], {}, secondScript);
    await second.waitFor(READY);
    const screen = await second.waitFor("◼ Writing the summary");
    expect(screen).toContain(`Resumed session ${earlier}`);
    expect(screen).toContain("> first question");
    expect(screen).toContain("Planning first.");
    expect(screen).toMatch(/Update Todos\s+⎿\s+☒ Read the notes/);
    expect(screen).toContain("First answer.");
    // The task panel shows the list as it stood (the in-progress item by its active form).
    expect(screen).toContain("◼ Writing the summary");
    await submit(second, "and now?");
    await second.waitFor("Second answer.");
    const lines = await transcriptWhen(p, (l) => JSON.stringify(l).includes("Second answer"));
    expect(lines[0]?.sessionId).toBe(earlier);
  });

  it("asks whether to trust a folder whose settings widen permissions, and remembers yes", async () => {
    const p = project([{ content: [text("ok")] }], {
      ".warden/settings.json": JSON.stringify({ permissions: { allow: ["Bash(make:*)"] } }),
    });
    const t = p.start();
    const question = await t.waitFor("Do you trust the files in this folder?");
    expect(question).toContain("permissions.allow");
    t.type("1");
    // Answered, the question leaves the screen; the session's prompt is all that shows.
    const session = await t.waitFor(READY);
    expect(session).not.toContain("Do you trust");
    const user = JSON.parse(readFileSync(join(p.home, "settings.json"), "utf8"));
    expect(JSON.stringify(user.trustedFolders)).toContain(p.cwd.split("/").pop());
    t.press("C-c", "C-c");
    expect(await t.exitCode()).toBe(0);
    // The last frame stays on screen: without the passing hint the first Ctrl+C showed.
    expect(t.screen()).toContain("default mode");
    expect(t.screen()).not.toContain("Press Ctrl+C again to exit");

    const again = p.start();
    await again.waitFor(READY);
    expect(again.screen()).not.toContain("Do you trust");
  });

  it("declining trust exits before anything from the folder runs", async () => {
    const p = project([], {
      ".warden/settings.json": JSON.stringify({
        hooks: { SessionStart: [{ hooks: [{ type: "command", command: "touch hook-ran" }] }] },
      }),
    });
    const t = p.start();
    await t.waitFor("Do you trust the files in this folder?");
    t.type("2");
    expect(await t.exitCode()).toBe(1);
    expect(existsSync(join(p.cwd, "hook-ran"))).toBe(false);
    // The way back is named: trusting later, or a headless run that applies only what restricts.
    const said = t.screen().replace(/\n/g, "");
    expect(said).toContain("warden: the folder is not trusted; nothing from it was run.");
    expect(said).toContain(`To trust it later: warden trust ${p.cwd}`);
    expect(said).toContain("warden -p");
  });

  it("sends a prompt typed with its Enter before the session has started, and shows it once", async () => {
    const p = project([{ content: [text("Got it.")] }]);
    const t = p.start();
    // At once: the terminal is still cooked, and turns the Enter into a newline (Ctrl+J to the UI).
    t.type("typed early");
    t.press("Enter");
    await t.waitFor("Got it.");
    const prompts = t
      .screen()
      .split("\n")
      .filter((line) => line.includes("typed early"));
    // The prompt once in the transcript (a terminal's own echo of it, before raw mode, has no ">").
    expect(prompts.filter((line) => line.startsWith(">"))).toHaveLength(1);
    t.press("C-d");
    expect(await t.exitCode()).toBe(0);
  });

  it("keeps keys typed before the UI has loaded, and draws no colour with NO_COLOR", async () => {
    const p = project([{ content: [text("Got it.")] }]);
    const t = p.start([], { NO_COLOR: "1" });
    t.type("typed early");
    await t.waitFor(READY);
    await t.waitFor("typed early");
    t.press("Enter");
    await t.waitFor("Got it.");
    expect(t.screen(true)).not.toMatch(/\x1b\[(3\d|9\d|38;)/);
    t.press("C-d");
    expect(await t.exitCode()).toBe(0);
  });
});

async function waitForProcess(pattern: string, present: boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    let found = false;
    try {
      found = execFileSync("pgrep", ["-f", pattern], { encoding: "utf8" }).trim() !== "";
    } catch {
      found = false;
    }
    if (found === present) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`process "${pattern}" ${present ? "never started" : "is still running"}`);
}
