// Messages between sessions (SendMessage to "bridge:<session id>"): two real Warden processes on
// one machine, the receiver listening on its socket in Warden's home. A message from another
// session always asks the receiving session's user first: headless, nobody can be asked, so it is
// refused with the reason and its model never sees it; in the interactive CLI (tmux) the person
// sees a permission prompt naming the sending session, and once allowed the message reaches the
// model at its next turn. The sender's own side asks its user too (a rule can allow it).
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { projectSlug } from "../../src/config/paths.js";
import {
  type RecordedRequest,
  reply,
  replyFrom,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import { killTerminals, READY, submit, transcriptWhen, tuiProject } from "../helpers/tui-project.js";
import { tempDir, text } from "../loop/helpers.js";
import { jsonLines } from "./run-cli.js";
import { messagesOf, resultIn, runScriptedCli } from "./scripted-cli.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.respondWith(undefined);
  killTerminals();
});

const teams = { WARDEN_AGENT_TEAMS: "1" };

/** A warden -p in `cwd` with Warden's home `home` (sender and receiver share one), teams on. */
const warden = (home: string, cwd: string, args: string[]) => runScriptedCli(server, { home, cwd }, args, teams);

const startsWith = (request: RecordedRequest, words: string) => JSON.stringify(messagesOf(request)[0]).includes(words);

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The sender's model: one SendMessage to `to`, then a last word once it has the result. */
function senderTurns(request: RecordedRequest, to: string) {
  return resultIn(request, "cross") === ""
    ? reply().tool(
        "SendMessage",
        { to, message: "HELLO-FROM-A: the build is green", summary: "build status from A" },
        { id: "cross" },
      )
    : reply().text("A is done.");
}

describe("a message from another session, headless", () => {
  it("is refused with the reason (nobody can be asked) and never reaches the model; the sender asks first", async () => {
    const home = tempDir("warden-xs-home-");
    const receiverCwd = realpathSync(tempDir("warden-xs-receiver-"));
    const senderCwd = realpathSync(tempDir("warden-xs-sender-"));
    const receiverId = randomUUID();
    const socket = join(home, "sessions", `${receiverId}.sock`);
    let senderDone!: () => void;
    const senderFinished = new Promise<void>((resolve) => {
      senderDone = resolve;
    });
    server.respondWith((request) => {
      // The receiver's turn waits until the sender has its answer: the message comes mid-session.
      if (startsWith(request, "Wait for news"))
        return replyFrom(async () => senderFinished.then(() => reply().text("B ends.")));
      if (startsWith(request, "Tell B")) {
        if (resultIn(request, "cross") !== "") senderDone();
        return senderTurns(request, `bridge:${receiverId}`);
      }
      if (startsWith(request, "Try without leave")) return senderTurns(request, `bridge:${receiverId}`);
      return undefined;
    });
    const receiver = warden(home, receiverCwd, ["-p", "Wait for news", "--session-id", receiverId]);
    await until(() => existsSync(socket), "the receiver's socket");

    // The sender's own side asks its user: without a rule allowing SendMessage, headless refuses.
    const refusedHere = await warden(home, senderCwd, ["-p", "Try without leave"]);
    expect(refusedHere.code, refusedHere.stderr).toBe(0);
    const own = server.requests.filter((r) => startsWith(r, "Try without leave")).at(-1) as RecordedRequest;
    expect(resultIn(own, "cross")).toContain("Permission to use SendMessage was denied");

    const sender = await warden(home, senderCwd, ["-p", "Tell B", "--allowedTools", "SendMessage"]);
    expect(sender.code, sender.stderr).toBe(0);
    const senderId = jsonLines(sender.stdout)[0]?.session_id as string;
    const done = await receiver;
    expect(done.code, done.stderr).toBe(0);

    const last = server.requests.filter((r) => startsWith(r, "Tell B")).at(-1) as RecordedRequest;
    const answer = resultIn(last, "cross");
    expect(answer).toContain(`The session bridge:${receiverId} refused the message:`);
    expect(answer).toContain("nobody can approve it in this non-interactive session");
    expect(answer).toContain(`session ${senderId}`);
    expect(answer).toContain("a message from another session always asks the user first");
    // The receiver's model never saw it; its transcript says who sent what and that it was refused.
    const receiverRequests = server.requests.filter((r) => startsWith(r, "Wait for news"));
    expect(receiverRequests).toHaveLength(1);
    expect(JSON.stringify(receiverRequests.map((r) => r.body))).not.toContain("HELLO-FROM-A");
    const transcript = readFileSync(join(home, "projects", projectSlug(receiverCwd), `${receiverId}.jsonl`), "utf8");
    const entry = transcript
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((e) => e.type === "session_message");
    expect(entry).toMatchObject({
      from: { sessionId: senderId, cwd: senderCwd },
      summary: "build status from A",
      behavior: "deny",
    });
    expect(existsSync(socket)).toBe(false);
  }, 120_000);
});

describe("a message from another session, in the interactive CLI (tmux)", () => {
  it("shows a permission prompt naming the sending session; allowed, it reaches the model's next turn", async () => {
    const p = tuiProject([{ content: [text("I read the news from A.")] }]);
    const receiverId = randomUUID();
    const senderId = randomUUID();
    const t = p.start(["--session-id", receiverId], teams);
    await t.waitFor(READY);
    await until(() => existsSync(join(p.home, "sessions", `${receiverId}.sock`)), "the receiver's socket");

    server.respondWith((request) => senderTurns(request, `bridge:${receiverId}`));
    const senderCwd = realpathSync(tempDir("warden-xs-sender-"));
    const sending = warden(p.home, senderCwd, [
      "-p",
      "Tell B",
      "--allowedTools",
      "SendMessage",
      "--session-id",
      senderId,
    ]);
    const prompt = await t.waitFor(`Message from session ${senderId}`, 60_000);
    expect(prompt).toContain("build status from A");
    expect(prompt).toContain(`Why it asks: session ${senderId} in ${senderCwd}`);
    expect(prompt).toContain("a message from another session always asks the user first");
    expect(prompt).toContain("Do you want to proceed?");
    t.type("1");
    const sender = await sending;
    expect(sender.code, sender.stderr).toBe(0);
    const last = server.requests.at(-1) as RecordedRequest;
    expect(resultIn(last, "cross")).toContain(`Message delivered to bridge:${receiverId}: its user allowed it in`);

    await submit(t, "any news?");
    await t.waitFor("I read the news from A.");
    const lines = await transcriptWhen(p, (all) => JSON.stringify(all).includes("cross-session-message"));
    const userLines = JSON.stringify(lines.filter((l) => l.type === "user"));
    expect(userLines).toContain(`cross-session-message from_session=\\"${senderId}\\"`);
    expect(userLines).toContain("HELLO-FROM-A: the build is green");
    expect(lines.find((l) => l.type === "session_message")).toMatchObject({ behavior: "allow" });
  }, 120_000);
});
