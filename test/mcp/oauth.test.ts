// An MCP server behind OAuth (a real authorization server and protected MCP server on 127.0.0.1):
// it answers 401, so it is `needs-auth` and offers only mcp__secure__authenticate; the tool starts
// the login (discovery, dynamic registration, PKCE) and returns the page; a scripted browser follows
// it; the server connects and its tools appear. An expired access token is refreshed. And from the
// shell: `warden mcp list`, `warden mcp login`, `warden mcp logout`.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { authStorePath } from "../../src/mcp/auth/store.js";
import { McpClientManager } from "../../src/mcp/manager.js";
import { toolResultText } from "../../src/messages/types.js";
import type { AnyTool } from "../../src/tool/types.js";
import { runCli } from "../cli/run-cli.js";
import { tempDir } from "../loop/helpers.js";
import { callTool, makeProject } from "../tools/helpers.js";
import { entry } from "./fixtures.js";
import { followInBrowser, type OAuthFixture, startOAuthFixture } from "./oauth-fixture.js";

let fixture: OAuthFixture;
const managers: McpClientManager[] = [];

beforeAll(async () => {
  fixture = await startOAuthFixture();
});
afterAll(async () => {
  await fixture.close();
});
afterEach(async () => {
  for (const manager of managers.splice(0)) await manager.close();
  delete process.env.WARDEN_HOME;
});

function managerFor(cwd: string): McpClientManager {
  const manager = new McpClientManager([entry("secure", { type: "http", url: fixture.mcpUrl })], { cwd });
  managers.push(manager);
  return manager;
}

function names(tools: readonly AnyTool[]): string[] {
  return tools.map((tool) => tool.name);
}

describe("an MCP server that needs a login", () => {
  it("goes from needs-auth to connected through McpAuth and a browser, and refreshes an expired token", async () => {
    process.env.WARDEN_HOME = tempDir("warden-oauth-home-");
    const project = await makeProject();
    const manager = managerFor(project.dir);
    await manager.connectAll();
    expect(manager.statuses()[0]).toMatchObject({ name: "secure", state: "needs-auth" });
    expect(names(manager.tools())).toEqual(["mcp__secure__authenticate"]);
    const changed = new Promise<AnyTool[]>((resolve) => manager.onToolsChanged((tools) => resolve(tools)));

    const auth = manager.tools()[0] as AnyTool;
    const offerToModel = (tools: AnyTool[]) => {
      (project.context.options as { tools: AnyTool[] }).tools = tools;
    };
    offerToModel(manager.tools());
    expect(auth.shouldDefer).toBe(true);
    expect(auth.maxResultSizeChars).toBe(10_000);
    const result = await callTool(auth, {}, project.context);
    const text = toolResultText(result.content);
    expect(result.is_error, text).toBeFalsy();
    const url = /https?:\/\/\S+/.exec(text.split("\n")[1] ?? "")?.[0] ?? "";
    expect(url.startsWith(`${fixture.url}/authorize?`)).toBe(true);
    const params = new URL(url).searchParams;
    expect(params.get("code_challenge_method")).toBe("S256");
    expect(params.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(fixture.registrations).toBe(1);

    const page = await followInBrowser(url);
    expect(page.status).toBe(200);
    expect(page.body).toContain("Signed in");
    expect(names(await changed)).toEqual(["mcp__secure__whoami"]);
    expect(manager.statuses()[0]?.state).toBe("connected");
    expect(fixture.grants).toEqual(["authorization_code"]);

    // Tokens: in a file only the user can read, never in what the model got.
    expect(statSync(authStorePath()).mode & 0o777).toBe(0o600);
    const stored = readFileSync(authStorePath(), "utf8");
    const [accessToken] = fixture.liveAccessTokens();
    expect(accessToken && stored.includes(accessToken)).toBe(true);
    expect(text).not.toContain(accessToken as string);

    const whoami = manager.tools()[0] as AnyTool;
    offerToModel(manager.tools());
    expect(toolResultText((await callTool(whoami, {}, project.context)).content)).toMatch(/^client /);

    // The access token expires: the next call is refused, refreshed with the refresh token, retried.
    fixture.expireAccessTokens();
    const again = await callTool(whoami, {}, project.context);
    expect(again.is_error).toBeFalsy();
    expect(toolResultText(again.content)).toMatch(/^client /);
    expect(fixture.grants).toEqual(["authorization_code", "refresh_token"]);
    const [refreshed] = fixture.liveAccessTokens();
    expect(refreshed).not.toBe(accessToken);
    expect(readFileSync(authStorePath(), "utf8")).toContain(refreshed as string);
    await project.cleanup();
  });

  it("signs in and out from the shell: warden mcp list / login / logout", async () => {
    const home = tempDir("warden-oauth-cli-");
    const cwd = tempDir("warden-oauth-project-");
    const config = JSON.stringify({ mcpServers: { secure: { type: "http", url: fixture.mcpUrl } } });
    const list = async () => (await runCli(["mcp", "list", "--mcp-config", config, "--cwd", cwd], { home })).stdout;
    expect(await list()).toMatch(/secure\s+http\s+needs-auth/);

    let browsed: Promise<{ status: number; body: string }> | undefined;
    const login = await runCli(["mcp", "login", "secure", "--mcp-config", config, "--cwd", cwd], {
      home,
      onStdout: (chunk) => {
        const url = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(chunk)?.[1];
        if (url && !browsed) browsed = followInBrowser(url);
      },
    });
    expect(login.stderr).toBe("");
    expect(login.code).toBe(0);
    expect((await browsed)?.status).toBe(200);
    expect(login.stdout).toContain("Signed in to secure: connected, 1 tool.");
    expect(statSync(join(home, "mcp-oauth.json")).mode & 0o777).toBe(0o600);
    expect(await list()).toMatch(/secure\s+http\s+connected\s+1 tool/);

    const logout = await runCli(["mcp", "logout", "secure"], { home });
    expect(logout.stdout).toContain("Signed out of secure");
    expect(await list()).toMatch(/secure\s+http\s+needs-auth/);
  });
});
