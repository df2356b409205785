import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isProcessAlive } from "../../src/process/process-group.js";
import {
  bubblewrapArgs,
  literalRulePath,
  parseSandboxSettings,
  probeBubblewrap,
  resolveSandboxSettings,
  socketsNamedByEnvironment,
  unixSocketFilter,
} from "../../src/shell/sandbox/index.js";
import { emptyPermissionContext, type PermissionRule } from "../../src/tool/permission-types.js";
import { BashTool } from "../../src/tools/bash/tool.js";
import { createSession, type Session, text } from "../tools/bash/harness.js";

let server: Server;
let port = 0;
let outside: string;
const sessions: Session[] = [];

function sandboxed(settings: Record<string, unknown> = {}): Session {
  const session = createSession({ sandboxSettings: { enabled: true, ...settings } });
  sessions.push(session);
  return session;
}

beforeAll(async () => {
  const availability = await probeBubblewrap();
  if (!availability.available) throw new Error(`these tests need bubblewrap: ${availability.reason}`);
  server = createServer((_req, res) => res.end("hello from the host"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  outside = realpathSync(mkdtempSync(join(tmpdir(), "warden-outside-")));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(outside, { recursive: true, force: true });
});

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.cleanup();
});

describe("sandbox: file system", () => {
  it("denies a write outside the working directories and says the sandbox caused it", async () => {
    const session = sandboxed();
    const target = join(outside, "escaped.txt");
    const result = await session.run("Bash", { command: `echo data > '${target}'` });
    expect(result.is_error).toBe(true);
    expect(existsSync(target)).toBe(false);
    expect(text(result)).toContain("Read-only file system");
    expect(text(result)).toContain("<sandbox_violation>");
    expect(text(result)).toContain(`writes are allowed only inside ${session.project}`);
  });

  it("drops every capability, so even as root a command cannot remount its way out", async () => {
    const session = sandboxed();
    const target = join(outside, "remounted.txt");
    const result = await session.run("Bash", {
      command: `grep CapEff /proc/self/status; mount -o remount,bind,rw / 2>/dev/null; touch '${target}'`,
    });
    expect(text(result)).toContain("CapEff:\t0000000000000000");
    expect(existsSync(target)).toBe(false);
  });

  it("the same write succeeds without the sandbox", async () => {
    const session = createSession();
    sessions.push(session);
    const target = join(outside, "allowed.txt");
    const result = await session.run("Bash", { command: `echo data > '${target}'` });
    expect(result.is_error).toBeUndefined();
    expect(readFileSync(target, "utf8")).toBe("data\n");
  });

  it("allows writes inside the project and in the session temp folder ($TMPDIR)", async () => {
    const session = sandboxed();
    const result = await session.run("Bash", { command: 'echo inside > made.txt && f=$(mktemp) && echo "$f"' });
    expect(result.is_error).toBeUndefined();
    expect(readFileSync(join(session.project, "made.txt"), "utf8")).toBe("inside\n");
    expect(text(result).startsWith(join(session.sessionDir, "tmp"))).toBe(true);
  });

  it("carries a cd over between sandboxed commands", async () => {
    const session = sandboxed();
    await session.run("Bash", { command: "mkdir -p deep/er && cd deep/er" });
    expect(text(await session.run("Bash", { command: "pwd" }))).toBe(join(session.project, "deep", "er"));
  });

  it("keeps .git/hooks, .git/config and settings files read-only while git itself still works", async () => {
    const session = sandboxed();
    execFileSync("git", ["init", "-q"], { cwd: session.project });
    execFileSync("mkdir", ["-p", ".warden"], { cwd: session.project });
    writeFileSync(join(session.project, ".warden", "settings.json"), "{}");

    const hook = await session.run("Bash", { command: "echo 'curl evil' > .git/hooks/pre-commit" });
    expect(hook.is_error).toBe(true);
    expect(existsSync(join(session.project, ".git", "hooks", "pre-commit"))).toBe(false);

    const config = await session.run("Bash", { command: "git config core.hooksPath /tmp/evil" });
    expect(config.is_error).toBe(true);
    expect(readFileSync(join(session.project, ".git", "config"), "utf8")).not.toContain("hooksPath");

    const settings = await session.run("Bash", {
      command: `echo '{"permissions":{"allow":["Bash"]}}' > .warden/settings.json`,
    });
    expect(settings.is_error).toBe(true);
    expect(readFileSync(join(session.project, ".warden", "settings.json"), "utf8")).toBe("{}");

    const commit = await session.run("Bash", {
      command:
        "echo hi > a.txt && git add a.txt && git -c user.name=t -c user.email=t@example.com commit -q -m first && git log --oneline | wc -l",
    });
    expect(commit.is_error).toBeUndefined();
    // The commit count, then Bash's report of the git operation (the sandboxed git really committed).
    expect(text(commit)).toMatch(/^1\nGit: \S+ is at [0-9a-f]{7,}; 1 new commit/);
  });
});

describe("sandbox: read deny rules", () => {
  it("hides the files and folders that Read deny rules name", async () => {
    execFileSync("mkdir", ["-p", join(outside, "keys")]);
    writeFileSync(join(outside, "secret.txt"), "top secret");
    writeFileSync(join(outside, "keys", "id_rsa"), "private key");
    writeFileSync(join(outside, "public.txt"), "public");
    const deny = (ruleContent: string): PermissionRule => ({
      source: "userSettings",
      behavior: "deny",
      value: { toolName: "Read", ruleContent },
    });
    const session = createSession({ sandboxSettings: { enabled: true } });
    sessions.push(session);
    session.context.setAppState((state) => ({
      ...state,
      toolPermissionContext: {
        ...emptyPermissionContext(session.project),
        rules: { allow: [], ask: [], deny: [deny(`/${outside}/secret.txt`), deny(`/${outside}/keys/**`)] },
      },
    }));
    const result = await session.run("Bash", {
      command: `cat '${outside}/secret.txt'; ls -A '${outside}/keys'; cat '${outside}/public.txt'`,
    });
    expect(text(result)).not.toContain("top secret");
    expect(text(result)).not.toContain("id_rsa");
    expect(text(result)).toContain("public");
  });

  it("turns only single-path patterns into mounts", () => {
    expect(literalRulePath("//etc/shadow", "/p")).toBe("/etc/shadow");
    expect(literalRulePath("./.env", "/p")).toBe("/p/.env");
    expect(literalRulePath("/config/keys/**", "/p")).toBe("/p/config/keys");
    expect(literalRulePath("secrets/prod", "/p")).toBe("/p/secrets/prod");
    expect(literalRulePath("*.env", "/p")).toBeUndefined();
    expect(literalRulePath(".env", "/p")).toBeUndefined();
    expect(literalRulePath("./src/**/*.key", "/p")).toBeUndefined();
    expect(literalRulePath("./../outside", "/p")).toBeUndefined();
  });
});

describe("sandbox: host sockets", () => {
  it("refuses Unix sockets, which a read-only mount and no network would not stop, unless allowed", async () => {
    const socketPath = join(outside, "agent.sock");
    const socketServer = createServer((_req, res) => res.end("socket reached"));
    await new Promise<void>((resolve) => socketServer.listen(socketPath, resolve));
    try {
      const command = `curl -sS --max-time 5 --unix-socket '${socketPath}' http://localhost/`;
      const boxed = sandboxed();
      const blocked = await boxed.run("Bash", { command });
      expect(blocked.is_error).toBe(true);
      expect(text(blocked)).not.toContain("socket reached");

      const allowed = sandboxed({ allowUnixSockets: true });
      expect(text(await allowed.run("Bash", { command }))).toBe("socket reached");

      const plain = createSession();
      sessions.push(plain);
      expect(text(await plain.run("Bash", { command }))).toBe("socket reached");
    } finally {
      await new Promise((resolve) => socketServer.close(resolve));
    }
  });

  it("still lets programs use anonymous socket pairs and the loopback network", async () => {
    const session = sandboxed();
    const result = await session.run("Bash", {
      command: `python3 -c 'import socket; a, b = socket.socketpair(); a.send(b"pair"); print(b.recv(4).decode()); socket.socket(socket.AF_INET).close(); print("inet")'`,
    });
    expect(text(result)).toBe("pair\ninet");
  });

  it("hides known socket files where no seccomp filter exists for the machine", () => {
    expect(unixSocketFilter("ia32")).toBeUndefined();
    expect(unixSocketFilter("x64")?.length).toBe(11 * 8);
    expect(unixSocketFilter("arm64")?.length).toBe(11 * 8);
  });

  it("finds the sockets the environment names", () => {
    expect(
      socketsNamedByEnvironment({
        SSH_AUTH_SOCK: "/tmp/ssh-x/agent.1",
        DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/1000/bus,guid=abc",
        DOCKER_HOST: "unix:///home/u/.docker/run/docker.sock",
      }),
    ).toEqual(["/tmp/ssh-x/agent.1", "/run/user/1000/bus", "/home/u/.docker/run/docker.sock"]);
    expect(socketsNamedByEnvironment({ DOCKER_HOST: "tcp://10.0.0.1:2375" })).toEqual([]);
  });
});

describe("sandbox: network", () => {
  it("blocks a connection to a server on the host's 127.0.0.1 and annotates the failure", async () => {
    const session = sandboxed();
    const result = await session.run("Bash", { command: `curl -sS --max-time 5 http://127.0.0.1:${port}/` });
    expect(result.is_error).toBe(true);
    expect(text(result)).not.toContain("hello from the host");
    expect(text(result)).toContain("the network is off");
  });

  it("reaches the same server when the settings allow the network, and without the sandbox", async () => {
    const open = sandboxed({ allowNetwork: true });
    const allowed = await open.run("Bash", { command: `curl -sS --max-time 5 http://127.0.0.1:${port}/` });
    expect(text(allowed)).toBe("hello from the host");

    const plain = createSession();
    sessions.push(plain);
    expect(text(await plain.run("Bash", { command: `curl -sS --max-time 5 http://127.0.0.1:${port}/` }))).toBe(
      "hello from the host",
    );
  });

  it("runs outside the sandbox on dangerouslyDisableSandbox, unless the settings forbid it", async () => {
    const session = sandboxed();
    const result = await session.run("Bash", {
      command: `curl -sS --max-time 5 http://127.0.0.1:${port}/`,
      dangerouslyDisableSandbox: true,
    });
    expect(text(result)).toContain("hello from the host");
    expect(text(result)).toContain("ran outside the sandbox");

    const strict = sandboxed({ allowUnsandboxedCommands: false });
    const refused = await strict.run("Bash", { command: "true", dangerouslyDisableSandbox: true });
    expect(refused.is_error).toBe(true);
    expect(text(refused)).toContain("allowUnsandboxedCommands: false");
  });

  it("sandboxes background tasks too", async () => {
    const session = sandboxed();
    const target = join(outside, "from-background.txt");
    const started = await session.run("Bash", { command: `echo x > '${target}'`, run_in_background: true });
    const id = /task id (\w+)/.exec(text(started))?.[1];
    const done = await session.run("TaskOutput", { task_id: id });
    expect(text(done)).toContain("<status>failed</status>");
    expect(existsSync(target)).toBe(false);
  });
});

/** Host pids of live `sleep <seconds>` processes (inside the sandbox they have other pids). */
function sleepersFor(seconds: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (argv[0]?.endsWith("sleep") && argv[1] === seconds && isProcessAlive(Number(entry))) pids.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return pids;
}

describe("sandbox: stopping", () => {
  it("TaskStop ends a sandboxed background task and everything inside the sandbox", async () => {
    const session = sandboxed();
    const marker = `${300 + Math.floor(Math.random() * 1000)}.4321`;
    const started = await session.run("Bash", {
      command: `sleep ${marker} & sleep ${marker}; wait`,
      run_in_background: true,
    });
    const id = /task id (\w+)/.exec(text(started))?.[1] ?? "missing";
    for (let i = 0; i < 200 && sleepersFor(marker).length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(sleepersFor(marker)).toHaveLength(2);
    await session.run("TaskStop", { task_id: id });
    expect(sleepersFor(marker)).toEqual([]);
  });

  it("a timeout ends a sandboxed foreground command and everything inside the sandbox", async () => {
    const session = sandboxed();
    const marker = `${300 + Math.floor(Math.random() * 1000)}.8765`;
    const result = await session.run("Bash", { command: `sleep ${marker} & sleep ${marker}; wait`, timeout: 1000 });
    expect(text(result)).toContain("timed out");
    expect(sleepersFor(marker)).toEqual([]);
  });
});

describe("sandbox: unavailable bubblewrap", () => {
  it("asks (as a safety check) instead of running unsandboxed silently, and says so once", async () => {
    process.env.WARDEN_BWRAP_PATH = join(outside, "no-such-bwrap");
    try {
      const session = sandboxed();
      const permission = await BashTool.checkPermissions({ command: "ls" }, session.context);
      expect(permission.behavior).toBe("ask");
      expect(permission.decisionReason).toMatchObject({ type: "safetyCheck" });
      expect("message" in permission && permission.message).toContain("WITHOUT the sandbox");

      // Once the user agreed, the command runs and the first result says the sandbox is missing.
      const first = await session.run("Bash", { command: "echo ran" });
      expect(text(first)).toContain("ran");
      expect(text(first)).toContain("sandbox is enabled but unavailable");
      const second = await session.run("Bash", { command: "echo again" });
      expect(text(second)).toBe("again");
    } finally {
      delete process.env.WARDEN_BWRAP_PATH;
    }
  });

  it("keeps a deny from the command check when the sandbox is unavailable", async () => {
    process.env.WARDEN_BWRAP_PATH = join(outside, "no-such-bwrap");
    try {
      const session = sandboxed();
      const permission = await BashTool.checkPermissions(
        { command: "ls", dangerouslyDisableSandbox: true },
        session.context,
      );
      // Leaving the sandbox on purpose is its own question (test/tools/bash/sandbox-opt-out.test.ts),
      // not the "sandbox unavailable" one.
      expect(permission.behavior).toBe("ask");
      expect("message" in permission && permission.message).not.toContain("cannot run here");
      const denied = await BashTool.checkPermissions(
        { command: "rm -rf x", dangerouslyDisableSandbox: true },
        {
          ...session.context,
          getAppState: () => ({
            ...session.context.getAppState(),
            toolPermissionContext: {
              ...session.context.getAppState().toolPermissionContext,
              rules: {
                allow: [],
                ask: [],
                deny: [{ source: "session", behavior: "deny", value: { toolName: "Bash", ruleContent: "rm:*" } }],
              },
            },
          }),
        },
      );
      expect(denied.behavior).toBe("deny");
    } finally {
      delete process.env.WARDEN_BWRAP_PATH;
    }
  });
});

describe("sandbox settings", () => {
  it("is off by default, on by setting or by WARDEN_SANDBOX=1, never off by the environment", () => {
    expect(resolveSandboxSettings({}, {}).enabled).toBe(false);
    expect(resolveSandboxSettings({ sandboxSettings: { enabled: true } }, {}).enabled).toBe(true);
    expect(resolveSandboxSettings({}, { WARDEN_SANDBOX: "1" }).enabled).toBe(true);
    expect(resolveSandboxSettings({ sandboxSettings: { enabled: true } }, { WARDEN_SANDBOX: "0" }).enabled).toBe(true);
  });

  it("parses our shape and Claude Code's, dropping fields of the wrong type", () => {
    expect(parseSandboxSettings({ enabled: "yes", allowNetwork: 1 })).toEqual({});
    expect(
      parseSandboxSettings({
        enabled: true,
        network: { allowedDomains: ["*"] },
        filesystem: { allowWrite: ["/x", 3] },
      }),
    ).toEqual({
      enabled: true,
      allowNetwork: true,
      additionalWritableDirectories: ["/x"],
    });
    // A narrower list keeps the whole network off and goes through the filtering proxy
    // (sandbox-network-proxy.test.ts).
    expect(parseSandboxSettings({ network: { allowedDomains: ["github.com"] } })).toEqual({
      allowedDomains: ["github.com"],
    });
    expect(parseSandboxSettings("nonsense")).toEqual({});
  });

  it("mounts writable folders over the read-only root, and protected paths over those", () => {
    const args = bubblewrapArgs({
      writableDirectories: ["/p"],
      readOnlyPaths: ["/p/.git/hooks"],
      allowNetwork: false,
      cwd: "/p",
      tempDir: "/s/tmp",
    });
    const at = (flag: string, path: string) => args.findIndex((arg, i) => arg === flag && args[i + 1] === path);
    expect(args).toContain("--unshare-net");
    expect(at("--ro-bind", "/")).toBeLessThan(at("--bind-try", "/p"));
    expect(at("--bind-try", "/p")).toBeLessThan(at("--ro-bind-try", "/p/.git/hooks"));
    expect(
      bubblewrapArgs({ writableDirectories: [], readOnlyPaths: [], allowNetwork: true, cwd: "/", tempDir: "/t" }),
    ).not.toContain("--unshare-net");
  });
});
