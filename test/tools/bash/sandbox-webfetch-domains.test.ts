import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseSandboxSettings } from "../../../src/shell/sandbox/index.js";
import { closeNetworkProxies } from "../../../src/shell/sandbox/network-proxy.js";
import {
  emptyPermissionContext,
  type PermissionBehavior,
  type PermissionRule,
} from "../../../src/tool/permission-types.js";
import { sandboxNetworkFor } from "../../../src/tools/bash/sandbox-network.js";
import { BashTool } from "../../../src/tools/bash/tool.js";
import { proxyTestSkipReason } from "../../shell/sandbox-proxy-prerequisites.js";
import { createSession, type Session, text } from "./harness.js";

function webFetchRule(behavior: PermissionBehavior, content: string): PermissionRule {
  return { source: "userSettings", behavior, value: { toolName: "WebFetch", ruleContent: content } };
}

function rulesOf(allow: PermissionRule[], deny: PermissionRule[] = []) {
  return { allow, deny, ask: [] };
}

const closed = { allowNetwork: false, allowedDomains: [], deniedDomains: [] };

describe("the sandbox's network lists from settings and WebFetch rules", () => {
  it("adds WebFetch(domain:) allow rules to allowedDomains; other tools' rules and whole-tool rules add nothing", () => {
    const network = sandboxNetworkFor(
      { ...closed, allowedDomains: ["github.com"] },
      rulesOf([
        webFetchRule("allow", "domain:example.com"),
        webFetchRule("allow", "domain:*.npmjs.org"),
        { source: "userSettings", behavior: "allow", value: { toolName: "WebFetch" } },
        { source: "userSettings", behavior: "allow", value: { toolName: "Bash", ruleContent: "domain:evil.com" } },
      ]),
    );
    expect(network).toEqual({
      kind: "filtered",
      lists: { allowed: ["github.com", "example.com", "*.npmjs.org"], denied: [] },
    });
  });

  it("opens the network through the proxy on WebFetch allow rules alone, and never on domain:*", () => {
    expect(sandboxNetworkFor(closed, rulesOf([webFetchRule("allow", "domain:example.com")]))).toEqual({
      kind: "filtered",
      lists: { allowed: ["example.com"], denied: [] },
    });
    expect(sandboxNetworkFor(closed, rulesOf([webFetchRule("allow", "domain:*")]))).toEqual({ kind: "none" });
    expect(sandboxNetworkFor(closed, rulesOf([]))).toEqual({ kind: "none" });
  });

  it("adds WebFetch(domain:) deny rules to deniedDomains, and filters a whole network that has denials", () => {
    expect(
      sandboxNetworkFor(
        { ...closed, allowedDomains: ["*.example.com"], deniedDomains: ["a.example.com"] },
        rulesOf([], [webFetchRule("deny", "domain:b.example.com")]),
      ),
    ).toEqual({
      kind: "filtered",
      lists: { allowed: ["*.example.com"], denied: ["a.example.com", "b.example.com"] },
    });
    expect(sandboxNetworkFor({ ...closed, allowNetwork: true }, rulesOf([]))).toEqual({ kind: "open" });
    expect(
      sandboxNetworkFor({ ...closed, allowNetwork: true }, rulesOf([], [webFetchRule("deny", "domain:evil.com")])),
    ).toEqual({ kind: "filtered", lists: { allowed: ["*"], denied: ["evil.com"] } });
  });

  it("tells the model the hosts the rules add, and the refused ones", async () => {
    const permissionContext = emptyPermissionContext("/p");
    permissionContext.rules = rulesOf(
      [webFetchRule("allow", "domain:docs.example.com")],
      [webFetchRule("deny", "domain:evil.example.com")],
    );
    const prompt = await BashTool.prompt({
      tools: [],
      permissionContext,
      cwd: "/p",
      sandboxSettings: { enabled: true, allowedDomains: ["github.com"] },
    });
    expect(prompt).toContain(
      "The network is limited to these hosts: github.com, docs.example.com (except evil.example.com)",
    );
    expect(prompt).toContain("ALL_PROXY (SOCKS5)");
  });
});

const skipReason = await proxyTestSkipReason();

describe.skipIf(skipReason !== undefined)(
  `WebFetch rules in the sandbox's proxy${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    let http: Server;
    let port = 0;
    const sessions: Session[] = [];

    beforeAll(async () => {
      http = createServer((req, res) => res.end(`hello from the host, path ${req.url}`));
      await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
      port = (http.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await new Promise((resolve) => http.close(resolve));
      await closeNetworkProxies();
    });
    afterEach(async () => {
      for (const session of sessions.splice(0)) await session.cleanup();
    });

    function sandboxed(network: Record<string, unknown>, allow: PermissionRule[], deny: PermissionRule[] = []) {
      const session = createSession({ sandboxSettings: parseSandboxSettings({ enabled: true, network }) });
      session.context.setAppState((state) => ({
        ...state,
        toolPermissionContext: { ...state.toolPermissionContext, rules: rulesOf(allow, deny) },
      }));
      sessions.push(session);
      return session;
    }

    const curl = (how: string, host: string, path: string) =>
      `curl -sS --noproxy '' --max-time 10 ${how} -w '\\nstatus %{http_code}' http://${host}:${port}${path}`;

    it("reaches a host only a WebFetch allow rule names, over HTTP and SOCKS5; another host stays refused", async () => {
      const session = sandboxed({}, [webFetchRule("allow", "domain:localhost")]);
      const http = await session.run("Bash", { command: curl("", "localhost", "/http") });
      expect(text(http)).toContain("hello from the host, path /http");
      const socks = await session.run("Bash", {
        command: curl("--socks5-hostname 127.0.0.1:1080", "localhost", "/socks"),
      });
      expect(text(socks)).toContain("hello from the host, path /socks");
      const other = await session.run("Bash", { command: curl("", "127.0.0.1", "/other") });
      expect(text(other)).toContain("status 403");
      expect(text(other)).toContain("WebFetch(domain:127.0.0.1)");
    });

    it("refuses a host a WebFetch deny rule names though allowedDomains lists it", async () => {
      const session = sandboxed(
        { allowedDomains: ["localhost", "127.0.0.1"] },
        [],
        [webFetchRule("deny", "domain:localhost")],
      );
      const denied = await session.run("Bash", { command: curl("", "localhost", "/denied") });
      expect(text(denied)).not.toContain("hello from the host");
      expect(text(denied)).toContain("status 403");
      expect(text(denied)).toContain("a WebFetch(domain:...) deny rule");
      const deniedSocks = await session.run("Bash", {
        command: curl("--socks5-hostname 127.0.0.1:1080", "localhost", "/denied"),
      });
      expect(deniedSocks.is_error).toBe(true);
      expect(text(deniedSocks)).not.toContain("hello from the host");
      const other = await session.run("Bash", { command: curl("", "127.0.0.1", "/other") });
      expect(text(other)).toContain("hello from the host, path /other");
    });

    it("holds a WebFetch deny rule where the settings open the whole network", async () => {
      const session = sandboxed({ allowedDomains: ["*"] }, [], [webFetchRule("deny", "domain:localhost")]);
      const denied = await session.run("Bash", { command: curl("", "localhost", "/denied") });
      expect(text(denied)).not.toContain("hello from the host");
      expect(text(denied)).toContain("status 403");
      const other = await session.run("Bash", { command: curl("", "127.0.0.1", "/open") });
      expect(text(other)).toContain("hello from the host, path /open");
    });
  },
);
