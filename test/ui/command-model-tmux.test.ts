// A command's `model` frontmatter typed in the interactive UI (the built binary in tmux, a scripted
// Anthropic server on 127.0.0.1): `/triage 42` is answered by the command's model, and the prompt
// after it by the session's own model again (the command's model holds for its run only).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../helpers/scripted-model-server.js";
import { scriptedModelServerFixture } from "../helpers/scripted-server-fixture.js";
import { TmuxTerminal } from "../helpers/tmux.js";
import { READY, submit } from "../helpers/tui-project.js";
import { tempDir } from "../loop/helpers.js";

const server = scriptedModelServerFixture();
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});

const modelOf = (body: unknown) => (body as { model: string }).model;

describe("a command's model in the UI (tmux)", () => {
  it("answers the command's prompt, then the session's model answers again", async () => {
    const home = tempDir("warden-command-model-home-");
    const cwd = tempDir("warden-command-model-project-");
    mkdirSync(join(home, ".claude", "commands"), { recursive: true });
    writeFileSync(
      join(home, ".claude", "commands", "triage.md"),
      "---\ndescription: Triage an issue\nmodel: haiku\n---\nTriage issue $ARGUMENTS.\n",
    );
    server.enqueue(reply().text("Triaged it."));
    server.enqueue(reply().text("Plain answer."));
    const t = TmuxTerminal.start({
      cwd,
      args: ["--model", "claude-test"],
      env: {
        HOME: home,
        WARDEN_HOME: join(home, ".warden"),
        ANTHROPIC_API_KEY: "test",
        ANTHROPIC_BASE_URL: server.anthropicBaseURL,
      },
    });
    terminals.push(t);
    await t.waitFor(READY);
    await submit(t, "/triage 42");
    await t.waitFor("Triaged it.");
    await submit(t, "and now?");
    await t.waitFor("Plain answer.");
    const asked = server.requests.filter((r) => JSON.stringify(r.body).includes('"messages"'));
    const triage = asked.find((r) => JSON.stringify(r.body).includes("Triage issue 42."));
    const after = asked.find((r) => JSON.stringify(r.body).includes("and now?"));
    expect(modelOf(triage?.body)).toBe("claude-haiku-4-5");
    expect(modelOf(after?.body)).toBe("claude-test");
    t.press("C-d");
    expect(await t.exitCode()).toBe(0);
  });
});
