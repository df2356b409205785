// The interactive session's prompts: `/name args` typed in the UI naming one of the user's commands
// becomes its text (as with -p), and its `allowed-tools` hold for that prompt only. The session is
// the one the UI opens (openInteractiveSession), against a model server on 127.0.0.1; the person's
// answers come from the UI's permission queue, here answered "no" by the test.
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parseSessionArgs } from "../../src/cli/flags/session-config.js";
import { openInteractiveSession } from "../../src/cli/interactive/session.js";
import { ElicitationQueue } from "../../src/ui/dialogs/elicitation-queue.js";
import { PermissionQueue } from "../../src/ui/dialogs/permission-queue.js";
import { SamplingQueue } from "../../src/ui/dialogs/sampling-queue.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { tempDir } from "../loop/helpers.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
afterEach(() => vi.unstubAllEnvs());

const requestText = (index: number): string => JSON.stringify(server.requests[index]?.body ?? {});

describe("slash commands in an interactive session", () => {
  it("expands the user's command and grants its allowed-tools while that prompt runs, not after", async () => {
    const home = tempDir("warden-ui-commands-home-");
    const cwd = realpathSync(tempDir("warden-ui-commands-project-"));
    vi.stubEnv("HOME", home);
    vi.stubEnv("WARDEN_HOME", join(home, ".warden"));
    vi.stubEnv("WARDEN_MANAGED_SETTINGS", join(home, "no-policy.json"));
    vi.stubEnv("ANTHROPIC_API_KEY", "test");
    vi.stubEnv("ANTHROPIC_BASE_URL", server.anthropicBaseURL);
    mkdirSync(join(home, ".warden", "commands"), { recursive: true });
    writeFileSync(
      join(home, ".warden", "commands", "scaffold.md"),
      "---\ndescription: Make a file\nallowed-tools: Write\n---\nCreate $ARGUMENTS with a greeting.\n",
    );
    const permissions = new PermissionQueue();
    // Nobody is at the keyboard: every question is answered "no".
    const asked: string[] = [];
    permissions.subscribe(() => {
      const pending = permissions.current;
      if (!pending) return;
      asked.push(pending.request.tool.name);
      // Answered after the queue has finished telling its listeners.
      queueMicrotask(() => pending.answer({ behavior: "deny", message: "no" }));
    });
    const config = parseSessionArgs(["--model", "anthropic:claude-test", "--cwd", cwd]);
    const handle = await openInteractiveSession(
      config,
      {
        permissions,
        elicitations: new ElicitationQueue(),
        samplings: new SamplingQueue(),
      },
      {},
    );
    try {
      const first = join(cwd, "hello.txt");
      const at = server.requests.length;
      server.enqueue(reply().tool("Write", { file_path: first, content: "hi" }, { id: "w1" }), reply().text("Made."));
      for await (const _ of handle.runPrompt("/scaffold hello.txt")) {
        // events are the UI's business
      }
      expect(requestText(at)).toContain("Create hello.txt with a greeting.");
      expect(requestText(at)).not.toContain("/scaffold");
      expect(existsSync(first)).toBe(true);
      expect(asked).toEqual([]);

      // The next prompt is not covered by the command's grant: the Write is asked (and refused).
      const second = join(cwd, "later.txt");
      server.enqueue(reply().tool("Write", { file_path: second, content: "x" }, { id: "w2" }), reply().text("No."));
      for await (const _ of handle.runPrompt("write later.txt")) {
        // events are the UI's business
      }
      expect(asked).toEqual(["Write"]);
      expect(existsSync(second)).toBe(false);
    } finally {
      await handle.close();
    }
  }, 60_000);
});
