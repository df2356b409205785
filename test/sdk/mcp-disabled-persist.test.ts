// A server turned off stays off in that folder: toggleMcpServer() through the real Agent SDK against
// Warden's built CLI, with a real stdio MCP server (demo-server.ts on the official MCP SDK) from
// the user's settings. The toggle writes `disabledMcpServers` into the folder's
// .warden/settings.local.json; the next session there reports the server disabled without starting
// its process (the server's command appends a line to a file each time it starts); turned on again
// it starts, and so does the session after that. A local settings file that cannot be rewritten
// safely refuses the toggle with the reason and is left byte for byte as it was.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Query, query } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { fixturePath } from "../mcp/fixtures.js";
import { Prompts, sdkOptions, type Workspace, wardenBin, workspace } from "./sdk-harness.js";

/** Sets the user's settings up with the demo server, whose command counts its starts in `starts`. */
function setUp(): { ws: Workspace; starts: string; local: string } {
  const ws = workspace();
  const starts = join(ws.home, "starts.log");
  const demo = {
    command: "sh",
    args: ["-c", `echo started >> '${starts}'; exec "$0" "$@"`, process.execPath, fixturePath("demo-server.ts")],
  };
  writeFileSync(join(ws.home, "settings.json"), JSON.stringify({ mcpServers: { demo } }));
  return { ws, starts, local: join(ws.cwd, ".warden", "settings.local.json") };
}

function startCount(starts: string): number {
  return existsSync(starts) ? readFileSync(starts, "utf8").split("\n").filter(Boolean).length : 0;
}

/** Runs one session in the workspace: `steps` drives it through the SDK's controls, then it ends. */
async function session(ws: Workspace, steps: (q: Query) => Promise<void>): Promise<void> {
  const prompts = new Prompts();
  const q = query({ prompt: prompts, options: sdkOptions(ws, { model: "replay:/dev/null" }) });
  const drained = (async () => {
    for await (const _ of q) {
      // No prompt is sent: nothing but the init line comes.
    }
  })();
  try {
    await q.initializationResult();
    await steps(q);
  } finally {
    prompts.end();
    await drained;
  }
}

const statusOf = async (q: Query) => (await q.mcpServerStatus()).find((s) => s.name === "demo");

describe("MCP servers turned off for a project (disabledMcpServers)", () => {
  it("a server turned off is not started by the next session; turned on, it starts again", async () => {
    const { ws, starts, local } = setUp();

    await session(ws, async (q) => {
      expect(await statusOf(q)).toMatchObject({ status: "connected" });
      await q.toggleMcpServer("demo", false);
      expect(await statusOf(q)).toMatchObject({ status: "disabled", tools: [] });
    });
    expect(startCount(starts)).toBe(1);
    expect(JSON.parse(readFileSync(local, "utf8"))).toEqual({ disabledMcpServers: ["demo"] });
    // `warden mcp list` shows it off, and does not start it either.
    const listed = execFileSync(process.execPath, [wardenBin, "mcp", "list", "--json"], {
      cwd: ws.cwd,
      env: { ...process.env, HOME: ws.home, WARDEN_HOME: ws.home },
      encoding: "utf8",
    });
    expect(JSON.parse(listed)).toMatchObject([{ name: "demo", state: "disabled" }]);
    expect(startCount(starts)).toBe(1);

    await session(ws, async (q) => {
      // Reported as off, and never started: the command did not run.
      expect(await statusOf(q)).toMatchObject({ status: "disabled", tools: [] });
      expect(startCount(starts)).toBe(1);
      await q.toggleMcpServer("demo", true);
      const on = await statusOf(q);
      expect(on).toMatchObject({ status: "connected" });
      expect(on?.tools?.map((t) => t.name)).toContain("echo");
      expect(startCount(starts)).toBe(2);
    });
    // Turned on: the name left the list, and the emptied list left the file.
    expect(JSON.parse(readFileSync(local, "utf8"))).toEqual({});

    await session(ws, async (q) => {
      // Its tools are remembered from the last session, so it finishes connecting after the first
      // request (none is sent here); its process starts at once all the same.
      expect(["pending", "connected"]).toContain((await statusOf(q))?.status);
      while (startCount(starts) < 3) await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(startCount(starts)).toBe(3);
  }, 120_000);

  it("refuses the toggle, naming the file, when the local settings cannot be rewritten; nothing is lost", async () => {
    const { ws, local } = setUp();
    mkdirSync(join(ws.cwd, ".warden"), { recursive: true });
    // A list that is not one of names: ignored with a warning when read (the server starts)...
    const wrongShape = '{\n  "disabledMcpServers": "demo",\n  "keep": [1, 2, 3]\n}\n';
    writeFileSync(local, wrongShape);
    await session(ws, async (q) => {
      expect(await statusOf(q)).toMatchObject({ status: "connected" });
      // ...and never overwritten.
      await expect(q.toggleMcpServer("demo", false)).rejects.toThrow(
        /MCP server "demo" was not turned off: .*settings\.local\.json: disabledMcpServers is not a list of names; not changing it/,
      );
      expect(readFileSync(local, "utf8")).toBe(wrongShape);
      expect(await statusOf(q)).toMatchObject({ status: "connected" });

      // Broken mid-session (the session read it fine at the start): refused the same way.
      const broken = '{ "disabledMcpServers": ["other"], oops }';
      writeFileSync(local, broken);
      await expect(q.toggleMcpServer("demo", false)).rejects.toThrow(
        /settings\.local\.json is not valid JSON; not changing it/,
      );
      expect(readFileSync(local, "utf8")).toBe(broken);
      expect(await statusOf(q)).toMatchObject({ status: "connected" });

      await expect(q.toggleMcpServer("nothing-here", false)).rejects.toThrow(/No MCP server named "nothing-here"/);
      expect(readFileSync(local, "utf8")).toBe(broken);
    });
  }, 120_000);
});
