// `--session-id` of a session this folder already has: Claude Code refuses it, and so does Warden,
// before the model is asked. Started anyway, the new conversation was appended to the old
// transcript as its continuation though the model never saw the old one, so a later --resume read
// back a history that never happened.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectSlug } from "../../src/config/paths.js";
import { reply } from "../helpers/scripted-model-server.js";
import { cliProject, runScriptedCli, scriptedServerOfFile } from "./scripted-cli.js";

const server = scriptedServerOfFile();

describe("--session-id", () => {
  it("refuses an id this folder's sessions already use, leaving that transcript as it was", async () => {
    const p = cliProject("session-id-in-use");
    const id = randomUUID();
    server().enqueue(reply().text("first"));
    const first = await runScriptedCli(server(), p, ["-p", "one", "--session-id", id]);
    expect(first.code, first.stderr).toBe(0);
    const path = join(p.home, "projects", projectSlug(p.cwd), `${id}.jsonl`);
    const before = readFileSync(path, "utf8");
    const requests = server().requests.length;

    const again = await runScriptedCli(server(), p, ["-p", "two", "--session-id", id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`--session-id ${id} is already in use`);
    expect(again.stderr).toContain(`--resume ${id}`);
    expect(server().requests.length).toBe(requests);
    expect(readFileSync(path, "utf8")).toBe(before);

    // Continuing it is --resume's job, and a fork may take a new id.
    server().enqueue(reply().text("forked"));
    const fork = await runScriptedCli(server(), p, [
      "-p",
      "three",
      "--resume",
      id,
      "--fork-session",
      "--session-id",
      randomUUID(),
    ]);
    expect(fork.code, fork.stderr).toBe(0);
  });
});
