// A process teammate's permission prompt reaches the host of an Agent SDK session: the teammate
// (`warden teammate`, its own process) asks its lead with a `can_use_tool` control request, the
// lead's ask handler is the SDK's canUseTool, so the host is asked about the teammate's call on the
// lead's wire, and its answer (allow, or deny with a message) is what the teammate's call gets.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assistantTurns, resultIn, whoAsks } from "../cli/scripted-cli.js";
import { reply, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { type Line, RawSession } from "./raw-control.js";
import { workspace } from "./sdk-harness.js";

const isAsk = (line: Line) => line.type === "control_request" && (line.request as Line).subtype === "can_use_tool";

describe("a process teammate's permission prompt", () => {
  it("goes to the SDK host as can_use_tool on the lead's wire, and the host's answer decides the teammate's call", async () => {
    const server = await startScriptedModelServer();
    const ws = workspace();
    let aliceDone = false;
    server.respondWith((request) => {
      if (whoAsks(request) === "alice") {
        const turn = assistantTurns(request);
        if (turn === 0)
          return reply().tool("Write", { file_path: join(ws.cwd, "allowed.txt"), content: "yes\n" }, { id: "tw" });
        if (turn === 1) return reply().tool("Bash", { command: "touch refused.txt" }, { id: "tb" });
        aliceDone = true;
        return reply().text(`alice heard: ${resultIn(request, "tb")}`);
      }
      const lead = JSON.stringify(request.body);
      if (!lead.includes('TeamCreate","input')) return reply().tool("TeamCreate", { team_name: "crew" }, { id: "l1" });
      if (!lead.includes('"name":"Agent","input')) {
        return reply().tool(
          "Agent",
          { team_name: "crew", name: "alice", description: "alice", prompt: "Write." },
          { id: "l2" },
        );
      }
      return reply().text("Waiting for alice.");
    });
    const session = new RawSession(
      ws,
      ["--model", "anthropic:claude-test", "--permission-prompt-tool", "stdio", "--teammate-mode", "process"],
      { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.anthropicBaseURL, WARDEN_AGENT_TEAMS: "1" },
    );
    const asked: Line[] = [];
    try {
      await session.ok({ subtype: "initialize" });
      session.send("Run the team");
      for (let i = 0; i < 2; i++) {
        const line = await session.next(isAsk);
        const request = line.request as Line;
        asked.push(request);
        session.write({
          type: "control_response",
          response: {
            subtype: "success",
            request_id: line.request_id,
            response:
              request.tool_name === "Write"
                ? { behavior: "allow", updatedInput: request.input }
                : { behavior: "deny", message: "NOT-TODAY from the host" },
          },
        });
      }
      for (let i = 0; i < 200 && !aliceDone; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await session.close();
      await server.close();
    }
    expect(asked.map((request) => [request.tool_name, request.tool_use_id])).toEqual([
      ["Write", "tw"],
      ["Bash", "tb"],
    ]);
    expect(existsSync(join(ws.cwd, "allowed.txt"))).toBe(true);
    expect(existsSync(join(ws.cwd, "refused.txt"))).toBe(false);
    expect(aliceDone).toBe(true);
    const lastOfAlice = server.requests.filter((request) => whoAsks(request) === "alice").at(-1);
    expect(resultIn(lastOfAlice as never, "tb")).toContain("NOT-TODAY from the host");
  }, 120_000);
});
