import { lookup } from "node:dns/promises";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isPrivateAddress } from "../../../src/tools/web-shared/addresses.js";
import { permissionsInProcess } from "../../permissions/check-in-process.js";

const home = realpathSync(mkdtempSync(join(tmpdir(), "warden-webfetch-perm-")));

afterAll(() => rmSync(home, { recursive: true, force: true }));

interface Request {
  tool: string;
  input: Record<string, unknown>;
  rules?: { allow?: string[]; deny?: string[]; ask?: string[] };
  mode?: string;
}

interface Decision {
  behavior: "allow" | "ask" | "deny";
  reason: string;
  rule: string | null;
  source: string | null;
}

/** Decisions for each request, in order, from one `warden permissions check --jsonl` (in process). */
async function check(requests: Request[], extraArgs: string[] = []): Promise<Decision[]> {
  const run = await permissionsInProcess(["check", "--jsonl", "--cwd", home, ...extraArgs], {
    home,
    cwd: home,
    input: `${requests.map((r) => JSON.stringify(r)).join("\n")}\n`,
  });
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`);
  return run.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Decision);
}

const fetchOf = (url: string, rules?: Request["rules"], mode?: string): Request => ({
  tool: "WebFetch",
  input: { url, prompt: "What does it say?" },
  ...(rules ? { rules } : {}),
  ...(mode ? { mode } : {}),
});

describe("WebFetch permissions", () => {
  it("asks for loopback and private addresses even where a whole-tool rule, a wildcard or bypass mode allows", async () => {
    const decisions = await check([
      fetchOf("http://127.0.0.1:8080/"),
      fetchOf("http://127.0.0.1:8080/", { allow: ["WebFetch"] }),
      fetchOf("http://127.0.0.1:8080/", {}, "bypassPermissions"),
      fetchOf("http://app.localhost:3000/", { allow: ["WebFetch(domain:*.localhost)"] }),
      fetchOf("http://169.254.169.254/latest/meta-data/", { allow: ["WebFetch"] }),
      fetchOf("http://[::1]:8080/"),
      fetchOf("https://10.1.2.3/admin"),
    ]);
    for (const decision of decisions) {
      expect(decision.behavior).toBe("ask");
      expect(decision.source).toBe("safetyCheck");
      expect(decision.reason).toMatch(/local network or this machine/);
    }
  });

  it("allows a private address that a rule names explicitly, and a deny rule still wins there", async () => {
    const [named, denied] = await check([
      fetchOf("http://127.0.0.1:8080/docs", { allow: ["WebFetch(domain:127.0.0.1)"] }),
      fetchOf("http://127.0.0.1:8080/docs", {
        allow: ["WebFetch(domain:127.0.0.1)"],
        deny: ["WebFetch(domain:127.0.0.1)"],
      }),
    ]);
    expect(named).toMatchObject({ behavior: "allow", rule: "WebFetch(domain:127.0.0.1)" });
    expect(denied).toMatchObject({ behavior: "deny", rule: "WebFetch(domain:127.0.0.1)" });
  });

  it("asks for a host name that resolves to a private address", async () => {
    const name = hostname();
    const addresses = await lookup(name, { all: true }).catch(() => []);
    if (!addresses.some((entry) => isPrivateAddress(entry.address))) {
      // This machine's name does not resolve to a private address here: nothing to show.
      return;
    }
    const [decision] = await check([fetchOf(`https://${name}/status`, { allow: ["WebFetch(domain:*)", "WebFetch"] })]);
    expect(decision).toMatchObject({ behavior: "ask", source: "safetyCheck" });
    expect(decision!.reason).toContain(name);
  });

  it("decides public hosts by domain rules: exact hosts, wildcards for subdomains, ask rules, and no rule", async () => {
    const decisions = await check([
      fetchOf("https://example.invalid/a", { allow: ["WebFetch(domain:example.invalid)"] }),
      fetchOf("https://api.example.invalid/a", { allow: ["WebFetch(domain:example.invalid)"] }),
      fetchOf("https://api.example.invalid/a", { allow: ["WebFetch(domain:*.example.invalid)"] }),
      fetchOf("https://example.invalid/a", {
        allow: ["WebFetch(domain:example.invalid)"],
        ask: ["WebFetch(domain:example.invalid)"],
      }),
      fetchOf("https://example.invalid/a"),
      fetchOf("https://example.invalid/a", { allow: ["WebFetch"] }),
      fetchOf("https://example.invalid/a", { deny: ["WebFetch"] }),
    ]);
    expect(decisions.map((d) => d.behavior)).toEqual(["allow", "ask", "allow", "ask", "ask", "allow", "deny"]);
    expect(decisions[2]!.rule).toBe("WebFetch(domain:*.example.invalid)");
    expect(decisions[4]!.reason).toContain("No rule allows example.invalid");
  });

  it("allows the pre-approved documentation hosts unasked, except where a deny rule names one", async () => {
    const [python, mdn, denied, other] = await check([
      fetchOf("https://docs.python.org/3/library/json.html"),
      fetchOf("https://developer.mozilla.org/en-US/docs/Web/HTTP"),
      fetchOf("https://docs.python.org/3/", { deny: ["WebFetch(domain:docs.python.org)"] }),
      fetchOf("https://python.org/"),
    ]);
    expect(python).toMatchObject({ behavior: "allow", source: "tool" });
    expect(python!.reason).toContain("pre-approved");
    expect(mdn!.behavior).toBe("allow");
    expect(denied!.behavior).toBe("deny");
    expect(other!.behavior).toBe("ask");
  });

  it("takes the pre-approved list from settings: [] asks for every host, a list of its own allows those", async () => {
    const none = await check(
      [fetchOf("https://docs.python.org/3/")],
      ["--settings", JSON.stringify({ webFetch: { preapprovedHosts: [] } })],
    );
    expect(none[0]!.behavior).toBe("ask");
    const own = await check(
      [fetchOf("https://wiki.example.invalid/page"), fetchOf("https://docs.python.org/3/")],
      ["--settings", JSON.stringify({ webFetch: { preapprovedHosts: ["wiki.example.invalid"] } })],
    );
    expect(own.map((d) => d.behavior)).toEqual(["allow", "ask"]);
  });
});

describe("WebSearch permissions", () => {
  it("asks by default and is allowed by a rule naming the tool", async () => {
    const search = { tool: "WebSearch", input: { query: "vitest 4 release notes" } };
    const [asked, allowed] = await check([search, { ...search, rules: { allow: ["WebSearch"] } }]);
    expect(asked!.behavior).toBe("ask");
    expect(allowed).toMatchObject({ behavior: "allow", rule: "WebSearch" });
  });
});
