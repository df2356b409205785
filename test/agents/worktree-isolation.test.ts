// Isolation "worktree" through the real loop: the scripted model server plays the model (the real
// Anthropic provider talks HTTP to it), the real permission engine decides with the headless ask
// handler, and git is real. The child's workspace is its worktree: an absolute path into the
// parent's checkout, handed to it in the prompt, is outside its working directories for the file
// tools and for Bash alike (refused here, as nobody can approve it), even in acceptEdits. The
// "removed because unchanged" decision reads the worktree as git would lose it.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "../../src/loop/session.js";
import { createCanUseTool, createHeadlessAskHandler } from "../../src/permissions/engine/index.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { emptyPermissionContext, type PermissionMode } from "../../src/tool/permission-types.js";
import { builtInTools } from "../../src/tools/registry.js";
import { type RecordedRequest, reply } from "../helpers/scripted-model-server.js";
import { scriptedModelServerFixture } from "../helpers/scripted-server-fixture.js";
import { tempDir } from "../loop/helpers.js";

const server = scriptedModelServerFixture();
const savedHome = process.env.WARDEN_HOME;
beforeAll(() => {
  process.env.WARDEN_HOME = tempDir("warden-isolation-home-");
});
afterAll(() => {
  if (savedHome === undefined) delete process.env.WARDEN_HOME;
  else process.env.WARDEN_HOME = savedHome;
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" });

function repo(): string {
  const cwd = realpathSync(tempDir("warden-isolation-"));
  mkdirSync(join(cwd, "src"));
  writeFileSync(join(cwd, "src/a.txt"), "a\n");
  writeFileSync(join(cwd, ".gitignore"), "*.log\n");
  git(cwd, "init", "-q");
  git(cwd, "add", ".");
  git(cwd, "commit", "-qm", "init");
  return cwd;
}

/** The text of every tool_result in a recorded Anthropic request, by tool_use id. */
function toolResults(request: RecordedRequest): Map<string, string> {
  const results = new Map<string, string>();
  const body = request.body as { messages: Array<{ content: unknown }> };
  for (const message of body.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Array<{ type: string; tool_use_id?: string; content?: unknown }>) {
      if (block.type !== "tool_result" || !block.tool_use_id) continue;
      const content = block.content;
      results.set(
        block.tool_use_id,
        typeof content === "string" ? content : (content as Array<{ text?: string }>).map((c) => c.text).join(""),
      );
    }
  }
  return results;
}

async function runSession(cwd: string, mode: PermissionMode): Promise<void> {
  const session = createSession({
    provider: createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: "test" }),
    model: "scripted",
    tools: builtInTools(),
    canUseTool: createCanUseTool({ askHandler: createHeadlessAskHandler() }),
    permissionContext: emptyPermissionContext(cwd, mode),
    isNonInteractive: true,
    cwd,
    transcript: false,
    loadMemory: false,
  });
  for await (const _event of session.submitMessage("go")) {
    // drained: the assertions read the files and the requests the model received
  }
}

describe("isolation 'worktree'", () => {
  it("keeps the child out of the parent's checkout: file tools and Bash writes and reads are refused", async () => {
    const cwd = repo();
    const parentFile = join(cwd, "src/a.txt");
    server.enqueue(
      reply().tool(
        "Agent",
        { description: "fix", prompt: `Fix ${parentFile}`, isolation: "worktree" },
        { id: "main-agent" },
      ),
      reply()
        .tool("Read", { file_path: parentFile }, { id: "child-read" })
        .tool("Write", { file_path: join(cwd, "src/leak.txt"), content: "leak\n" }, { id: "child-write" }),
      reply().tool("Bash", { command: `echo leak >> ${parentFile}` }, { id: "child-bash" }),
      reply().text("could not"),
      reply().text("done"),
    );
    await runSession(cwd, "acceptEdits");

    expect(readFileSync(parentFile, "utf8")).toBe("a\n");
    expect(existsSync(join(cwd, "src/leak.txt"))).toBe(false);
    const childSaw = toolResults(server.requests[3]!);
    for (const id of ["child-read", "child-write", "child-bash"]) {
      expect(childSaw.get(id), id).toMatch(/outside the working directories|denied/);
    }
    // Nothing happened in the worktree: it is removed, and the parent is told so in those words.
    const agentResult = toolResults(server.requests[4]!).get("main-agent") ?? "";
    expect(agentResult).toContain("removed since nothing in it changed");
    expect(existsSync(join(cwd, ".worktrees"))).toBe(true);
    expect(git(cwd, "worktree", "list").trim().split("\n")).toHaveLength(1);
  });

  it("keeps a child in bypass mode from writing the parent's checkout through Bash, yet lets it write elsewhere", async () => {
    // Bypass mode lets a shell write outside the working directories (a /tmp file is fine); the
    // parent's checkout, which holds the worktree, is no such place for an isolated child.
    const cwd = repo();
    const elsewhere = join(realpathSync(tempDir("warden-isolation-elsewhere-")), "out.txt");
    server.enqueue(
      reply().tool("Agent", { description: "fix", prompt: "fix it", isolation: "worktree" }, { id: "main-agent" }),
      // One call a response: a refused Bash call cancels the calls beside it.
      reply().tool("Bash", { command: "echo leak > ../../relative-leak.txt" }, { id: "child-relative" }),
      reply().tool("Bash", { command: `echo leak >> ${join(cwd, "src/a.txt")}` }, { id: "child-absolute" }),
      reply().tool("Bash", { command: `echo ok > ${elsewhere}` }, { id: "child-elsewhere" }),
      reply().tool("Bash", { command: "echo mine > src/mine.txt" }, { id: "child-own" }),
      reply().text("tried"),
      reply().text("done"),
    );
    await runSession(cwd, "bypassPermissions");

    expect(existsSync(join(cwd, "relative-leak.txt"))).toBe(false);
    expect(readFileSync(join(cwd, "src/a.txt"), "utf8")).toBe("a\n");
    expect(readFileSync(elsewhere, "utf8")).toBe("ok\n");
    const childSaw = toolResults(server.requests[5]!);
    for (const id of ["child-relative", "child-absolute"]) {
      expect(childSaw.get(id), id).toMatch(/protected path: .*in the checkout this isolated agent works apart from/);
    }
    expect(childSaw.get("child-elsewhere")).not.toMatch(/denied/);
    // Its own worktree is its to write: the file is there, and the worktree is kept for it.
    const kept = toolResults(server.requests[6]!).get("main-agent") ?? "";
    const worktree = /(\/\S+\.worktrees\/[^\s,)]+)/.exec(kept)?.[1];
    expect(worktree, kept).toBeDefined();
    expect(readFileSync(join(worktree as string, "src/mine.txt"), "utf8")).toBe("mine\n");
  });

  it("the child works freely in its worktree, which is kept when it holds work git would lose", async () => {
    const cwd = repo();
    server.enqueue(
      reply().tool("Agent", { description: "ignored", prompt: "make a log", isolation: "worktree" }, { id: "a1" }),
      // An ignored file only: `git status` without --ignored calls this worktree clean.
      reply().tool("Write", { file_path: "build.log", content: "results\n" }, { id: "w1" }),
      reply().text("wrote a log"),
      reply().tool(
        "Agent",
        { description: "detached", prompt: "commit, then leave", isolation: "worktree" },
        { id: "a2" },
      ),
      // A commit on its branch, then HEAD moved back to the start: only the branch holds the commit.
      reply().tool(
        "Bash",
        {
          command:
            "echo b > b.txt && git add b.txt && git -c user.email=t@t -c user.name=t commit -qm b && git checkout -q --detach HEAD~1",
        },
        { id: "b1" },
      ),
      reply().text("committed"),
      reply().text("done"),
    );
    // The child may run git as it likes (in its own checkout).
    await runSession(cwd, "bypassPermissions");

    const first = toolResults(server.requests[3]!);
    expect(first.get("a1")).toMatch(/kept because it changed something/);
    const logPath = /worktree (\S+) \(branch/.exec(first.get("a1") ?? "")?.[1];
    expect(logPath && readFileSync(join(logPath, "build.log"), "utf8")).toBe("results\n");
    const second = toolResults(server.requests[6]!);
    expect(second.get("a2")).toMatch(/kept because it changed something/);
    expect(git(cwd, "worktree", "list").trim().split("\n")).toHaveLength(3);
  });
});
