// An agent's frontmatter `mcpServers` as Claude Code writes it: names of the session's servers and
// `{name: config}` definitions, mixed in one list, or one object of definitions.
import { describe, expect, it } from "vitest";
import { parseAgentFile } from "../../src/config/agent-files.js";
import type { AgentDefinition } from "../../src/tool/agents.js";

function parse(frontmatter: string): AgentDefinition {
  const parsed = parseAgentFile("/agents/a.md", `---\nname: a\ndescription: d\n${frontmatter}\n---\nBody.\n`, "user");
  if (!("definition" in parsed)) throw new Error(parsed.issue.reason);
  return parsed.definition;
}

describe("agent frontmatter mcpServers", () => {
  it("keeps names as the session's servers and definitions as the agent's own", () => {
    const definition = parse(
      ["mcpServers:", "  - github", "  - probe:", "      command: node", "      args: [server.js]"].join("\n"),
    );
    expect(definition.mcpServers).toEqual(["github", "probe"]);
    expect(definition.inlineMcpServers).toEqual({ probe: { command: "node", args: ["server.js"] } });
  });

  it("reads one object of definitions and a comma-separated list of names", () => {
    expect(parse("mcpServers:\n  docs:\n    type: http\n    url: https://example.test/mcp").inlineMcpServers).toEqual({
      docs: { type: "http", url: "https://example.test/mcp" },
    });
    const named = parse("mcpServers: github, slack");
    expect(named.mcpServers).toEqual(["github", "slack"]);
    expect(named.inlineMcpServers).toBeUndefined();
  });
});
