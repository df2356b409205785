// `warden -p --json-schema` through the real CLI against a model server on 127.0.0.1: the schema
// as the tool's input schema, a valid call in the result's structured_output, a mismatch refused
// with the errors and corrected, a model that forgets sent back (a bounded number of times), and
// schemas that cannot be used refused before anything starts.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { tempDir } from "../loop/helpers.js";
import { jsonLines, runCli } from "./run-cli.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
afterEach(() => expect(server.pendingSteps()).toBe(0));

const SCHEMA = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    verdict: { type: "string", enum: ["pass", "fail"] },
    failures: { type: "integer", minimum: 0 },
    email: { type: "string", format: "email" },
  },
  required: ["verdict", "failures"],
  additionalProperties: false,
};

function warden(args: string[], format = "stream-json") {
  const home = tempDir("warden-json-home-");
  return runCli(["--model", "anthropic:claude-test", "--output-format", format, "--cwd", home, ...args], {
    home,
    env: {
      ANTHROPIC_API_KEY: "test",
      ANTHROPIC_BASE_URL: server.anthropicBaseURL,
      WARDEN_MANAGED_SETTINGS: join(home, "no-policy.json"),
    },
  });
}

function resultOf(stdout: string): Record<string, unknown> {
  return jsonLines(stdout).find((line) => line.type === "result") ?? {};
}

interface WireBlock {
  type: string;
  text?: string;
  content?: unknown;
  tool_use_id?: string;
}
function requestOf(index: number): {
  tools: Array<{ name: string; input_schema: unknown }>;
  messages: Array<{ content: WireBlock[] }>;
} {
  return server.requests[index]?.body as never;
}
function resultText(index: number, id: string): string {
  for (const block of requestOf(index).messages.flatMap((m) => m.content)) {
    if (block.type === "tool_result" && block.tool_use_id === id) return JSON.stringify(block.content);
  }
  return "";
}

describe("--json-schema", () => {
  it("offers the schema as StructuredOutput's input and puts a valid call in structured_output", async () => {
    const at = server.requests.length;
    server.enqueue(reply().tool("StructuredOutput", { verdict: "pass", failures: 0 }), reply().text("Done."));
    const run = await warden(["-p", "Run the tests and report", "--json-schema", JSON.stringify(SCHEMA)]);
    expect(run.code, run.stderr).toBe(0);
    expect(resultOf(run.stdout)).toMatchObject({
      subtype: "success",
      is_error: false,
      structured_output: { verdict: "pass", failures: 0 },
    });
    const sent = requestOf(at).tools.find((tool) => tool.name === "StructuredOutput");
    const { $schema: _draft, ...expected } = SCHEMA;
    expect(sent?.input_schema).toEqual(expected);
  });

  it("refuses a mismatch with every error, and takes the corrected call", async () => {
    const at = server.requests.length;
    server.enqueue(
      reply().tool("StructuredOutput", { verdict: "maybe", failures: -1, email: "nope", extra: 1 }, { id: "bad" }),
      reply().tool("StructuredOutput", { verdict: "fail", failures: 2, email: "qa@example.com" }, { id: "good" }),
      reply().text("Reported."),
    );
    const run = await warden(["-p", "Report", "--json-schema", JSON.stringify(SCHEMA)]);
    expect(run.code, run.stderr).toBe(0);
    const refused = resultText(at + 1, "bad");
    for (const what of [
      "/verdict",
      "allowed values",
      "/failures",
      "/email",
      "format",
      "additional properties",
      "attempt 1 of 5",
    ]) {
      expect(refused).toContain(what);
    }
    expect(resultOf(run.stdout).structured_output).toEqual({ verdict: "fail", failures: 2, email: "qa@example.com" });
  });

  it("sends a model that ended without the call back to make it", async () => {
    const at = server.requests.length;
    server.enqueue(
      reply().text("All tests pass."),
      reply().tool("StructuredOutput", { verdict: "pass", failures: 0 }),
      reply().text("Done."),
    );
    const run = await warden(["-p", "Report", "--json-schema", JSON.stringify(SCHEMA)], "json");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.stringify(requestOf(at + 1).messages.at(-1))).toContain(
      "ended your turn without a valid StructuredOutput call",
    );
    expect(JSON.parse(run.stdout)).toMatchObject({
      subtype: "success",
      structured_output: { verdict: "pass", failures: 0 },
    });
  });

  it("gives up after three reminders: an error result without structured_output, exit 1", async () => {
    server.enqueue(reply().text("no"), reply().text("still no"), reply().text("no again"), reply().text("never"));
    const run = await warden(["-p", "Report", "--json-schema", JSON.stringify(SCHEMA)]);
    expect(run.code).toBe(1);
    const result = resultOf(run.stdout);
    expect(result).toMatchObject({ subtype: "error_max_structured_output_retries", is_error: true });
    expect(result).not.toHaveProperty("structured_output");
  });

  it("stops after five mismatched calls: the model is told to stop and is not sent back", async () => {
    const at = server.requests.length;
    for (let i = 1; i <= 5; i++) server.enqueue(reply().tool("StructuredOutput", { verdict: "?" }, { id: `bad${i}` }));
    server.enqueue(reply().text("Giving up."));
    const run = await warden(["-p", "Report", "--json-schema", JSON.stringify(SCHEMA)]);
    expect(run.code).toBe(1);
    expect(resultText(at + 5, "bad5")).toContain("attempt 5 of 5: stop now");
    // Six requests: five calls and the closing text; no reminder after it.
    expect(server.requests.length - at).toBe(6);
    expect(resultOf(run.stdout).subtype).toBe("error_max_structured_output_retries");
  });

  it("counts every request of the run, the one sent back included, in num_turns and usage", async () => {
    server.enqueue(
      reply().text("All tests pass.").usage({ input: 100, output: 10 }),
      reply().tool("StructuredOutput", { verdict: "pass", failures: 0 }).usage({ input: 200, output: 20 }),
      reply().text("Done.").usage({ input: 300, output: 30 }),
    );
    const run = await warden(["-p", "Report", "--json-schema", JSON.stringify(SCHEMA)], "json");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      subtype: "success",
      num_turns: 3,
      usage: { input_tokens: 600, output_tokens: 60 },
      structured_output: { verdict: "pass", failures: 0 },
    });
  });

  it("never sends more requests than --max-turns allows, reminders included", async () => {
    const at = server.requests.length;
    server.enqueue(reply().text("no"), reply().text("still no"));
    const run = await warden(["-p", "Report", "--json-schema", JSON.stringify(SCHEMA), "--max-turns", "2"], "json");
    expect(run.code).toBe(1);
    expect(server.requests.length - at).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: "error_max_turns", is_error: true, num_turns: 2 });
  });

  it("ends in success with the data when the turn limit comes right after a valid StructuredOutput call", async () => {
    server.enqueue(reply().tool("StructuredOutput", { verdict: "fail", failures: 1 }));
    const run = await warden(["-p", "Report", "--json-schema", JSON.stringify(SCHEMA), "--max-turns", "1"], "json");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      subtype: "success",
      is_error: false,
      num_turns: 1,
      structured_output: { verdict: "fail", failures: 1 },
    });
  });

  it("wraps a schema whose root is not an object, read from a file, and prints the data in text format", async () => {
    const dir = tempDir("warden-json-schema-");
    const file = join(dir, "schema.json");
    writeFileSync(
      file,
      JSON.stringify({ type: "array", items: { $ref: "#/$defs/name" }, $defs: { name: { type: "string" } } }),
    );
    const at = server.requests.length;
    server.enqueue(reply().tool("StructuredOutput", { value: ["a.ts", "b.ts"] }), reply().text("Listed."));
    const run = await warden(["-p", "List the files", "--json-schema", file], "text");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('["a.ts","b.ts"]\n');
    expect(requestOf(at).tools.find((tool) => tool.name === "StructuredOutput")?.input_schema).toEqual({
      type: "object",
      properties: { value: { type: "array", items: { $ref: "#/$defs/name" } } },
      required: ["value"],
      additionalProperties: false,
      $defs: { name: { type: "string" } },
    });
  });

  it("refuses a schema it cannot use before the session starts (exit 2)", async () => {
    const cases: Array<[string, string]> = [
      ["{not json", "is not valid JSON"],
      ["/nonexistent/schema.json", "cannot read /nonexistent/schema.json"],
      ['{"type": "object", "properties": {"a": {"type": "nonsense"}}}', "the JSON schema is not valid"],
    ];
    for (const [schema, message] of cases) {
      const run = await warden(["-p", "x", "--json-schema", schema]);
      expect(run.code, schema).toBe(2);
      expect(run.stderr).toContain(message);
    }
  });

  it("refuses a bad schema before any MCP server is started", async () => {
    const dir = tempDir("warden-json-mcp-");
    const marker = join(dir, "server-started");
    // A stdio "server" that only records that it was launched: started, it would leave the marker.
    const config = JSON.stringify({
      mcpServers: {
        probe: {
          command: process.execPath,
          args: ["-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "")`],
        },
      },
    });
    const run = await warden(["-p", "x", "--json-schema", "{not json", "--mcp-config", config]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("is not valid JSON");
    expect(existsSync(marker)).toBe(false);
  });
});
