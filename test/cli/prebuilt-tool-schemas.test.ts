// The tools' input JSON Schemas the build computes (scripts/tool-schemas.mjs) so that a session
// neither builds their zod objects nor converts them before its first request (issue 39): the
// table must say exactly what the sources convert today, and the built session must send it.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { PREBUILT_SCHEMAS_FILE, toolInputJSONSchema } from "../../src/tool/schema.js";
import type { JSONSchema } from "../../src/tool/types.js";
import { builtInTools } from "../../src/tools/registry.js";
import { runProcess } from "../helpers/run-process.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { tempDir } from "../loop/helpers.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const table = () =>
  JSON.parse(readFileSync(join(root, "dist", PREBUILT_SCHEMAS_FILE), "utf8")) as Record<string, JSONSchema>;
/** The tools every session sends in its first request. */
const SENT_AT_START = [
  "Read",
  "Write",
  "Edit",
  "Bash",
  "Glob",
  "Grep",
  "TaskOutput",
  "Agent",
  "TodoWrite",
  "ToolSearch",
];

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(async () => {
  await server.close();
});

/** One built session ("say hi") from `cli`; the tools of its first request. */
async function firstRequestTools(cli: string): Promise<Array<{ name: string; input_schema: JSONSchema }>> {
  const home = tempDir();
  server.enqueue(reply().text("hi"));
  const before = server.requests.length;
  const { code, stderr } = await runProcess(
    process.execPath,
    [cli, "-p", "say hi", "--model", "anthropic:claude-test"],
    {
      cwd: tempDir(),
      env: {
        ...process.env,
        HOME: home,
        WARDEN_HOME: join(home, ".warden"),
        XDG_CACHE_HOME: join(home, "cache"),
        ANTHROPIC_API_KEY: "test",
        ANTHROPIC_BASE_URL: server.anthropicBaseURL,
      },
    },
  );
  expect(code, stderr).toBe(0);
  const body = server.requests[before]?.body as { tools: Array<{ name: string; input_schema: JSONSchema }> };
  return body.tools;
}

describe("the tools' prebuilt input schemas", () => {
  it("hold exactly what the sources convert today, for every tool a session sends at its start", () => {
    const built = table();
    const tools = builtInTools({ webSearch: { serverSide: true } });
    for (const name of SENT_AT_START) {
      const tool = tools.find((candidate) => candidate.name === name);
      expect(tool, name).toBeDefined();
      // From the sources there is no table: this is zod's conversion, run now.
      expect(built[name], name).toEqual(toolInputJSONSchema(tool as (typeof tools)[number]));
    }
  });

  it("are what the built session sends, taken from the table rather than converted", async () => {
    const tools = await firstRequestTools(join(root, "dist/cli.js"));
    const built = table();
    for (const name of SENT_AT_START) {
      expect(tools.find((tool) => tool.name === name)?.input_schema, name).toEqual(built[name]);
    }
    // A copy of the build whose table says something else about Read: the session sends the
    // table's words, so it read them there and did not convert Read's schema itself.
    const copy = join(root, "node_modules/.cache/warden-prebuilt-schemas-test");
    rmSync(copy, { recursive: true, force: true });
    mkdirSync(copy, { recursive: true });
    cpSync(join(root, "dist"), join(copy, "dist"), { recursive: true });
    const marked = { ...built, Read: { ...built.Read, description: "from the prebuilt table" } };
    writeFileSync(join(copy, "dist", PREBUILT_SCHEMAS_FILE), JSON.stringify(marked));
    try {
      const fromCopy = await firstRequestTools(join(copy, "dist/cli.js"));
      expect(fromCopy.find((tool) => tool.name === "Read")?.input_schema).toEqual(marked.Read);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("validate a call as the schema always did: built on first use, defaults and strictness kept", () => {
    const read = builtInTools({}).find((tool) => tool.name === "Read");
    const schema = read?.inputSchema as z.ZodType;
    expect(schema.safeParse({ file_path: "/a" }).success).toBe(true);
    expect(schema.safeParse({ file_path: "/a", surprise: 1 }).success).toBe(false);
    expect(schema.safeParse({}).success).toBe(false);
    expect(z.toJSONSchema(schema, { io: "input" }).type).toBe("object");
  });
});
