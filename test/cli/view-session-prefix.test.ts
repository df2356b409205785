// `warden view SESSION` takes a session as the resume picker and `--resume` show it: by the start
// of its id (`cbb95212`), not only by the whole id.
import { spawn } from "node:child_process";
import { realpathSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { transcriptPath } from "../../src/config/paths.js";
import { TranscriptWriter } from "../../src/session/transcript.js";
import { BUILT_CLI } from "../helpers/built.js";
import { runProcess } from "../helpers/run-process.js";
import { tempDir } from "../loop/helpers.js";

const savedHome = process.env.WARDEN_HOME;
let home: string;
let cwd: string;
beforeEach(() => {
  home = tempDir("warden-view-prefix-home-");
  process.env.WARDEN_HOME = home;
  cwd = realpathSync(tempDir("warden-view-prefix-cwd-"));
});
afterEach(() => {
  process.env.WARDEN_HOME = savedHome;
});

function writeSession(sessionId: string, prompt: string): void {
  const writer = new TranscriptWriter(transcriptPath(cwd, sessionId), { sessionId, cwd, model: "replay:x" });
  writer.recordMessage({ role: "user", content: [{ type: "text", text: prompt }] });
  writer.recordMessage({ role: "assistant", content: [{ type: "text", text: "done" }] });
}

/** Starts `warden view ARG` and returns the address it prints; the server is stopped after. */
async function viewAddress(arg: string): Promise<string> {
  const child = spawn(process.execPath, [BUILT_CLI, "view", arg], {
    cwd,
    env: { ...process.env, WARDEN_HOME: home, HOME: home },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  try {
    return await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
        const url = /open (http\S+)/.exec(out)?.[1];
        if (url) resolve(url);
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
      });
      child.on("close", (code) => reject(new Error(`warden view ended (${code}) without an address: ${out}`)));
    });
  } finally {
    child.kill("SIGINT");
  }
}

describe("warden view SESSION", () => {
  it("opens the session named by the start of its id, as the resume picker lists it", async () => {
    const id = "cbb95212-87e7-470c-babc-c581ec0ea880";
    writeSession(id, "add a sub function");
    writeSession("d5c77a92-5cfd-46c8-956f-d06958fdbb19", "run calc");
    const url = await viewAddress("cbb95212");
    expect(new URL(url).pathname).toBe(`/s/${id}`);
  });

  it("a start shared by two sessions is refused with both ids, not served as no session", async () => {
    writeSession("abc11111-0000-4000-8000-000000000001", "one");
    writeSession("abc22222-0000-4000-8000-000000000002", "two");
    const outcome = await runProcess(process.execPath, [BUILT_CLI, "view", "abc"], {
      cwd,
      env: { ...process.env, WARDEN_HOME: home, HOME: home },
    });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain("abc11111-0000-4000-8000-000000000001");
    expect(outcome.stderr).toContain("abc22222-0000-4000-8000-000000000002");
  });
});
