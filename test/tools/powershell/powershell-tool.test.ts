// The PowerShell tool's run: the script reaches pwsh as -EncodedCommand (UTF-16LE base64) in the
// session's directory; a missing pwsh is a clear error; a script past its timeout is stopped. pwsh
// is not installed on these machines, so WARDEN_PWSH names a small stand-in shell script that
// decodes the script and reports what it was given.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toolResultText } from "../../../src/messages/types.js";
import type { ToolUseContext } from "../../../src/tool/types.js";
import { PowerShellTool } from "../../../src/tools/powershell/tool.js";
import { allowUnlessDenied, callTool, makeProject, type TestProject } from "../helpers.js";

let project: TestProject | undefined;

/** The project's context with PowerShell in its pool (settings `powerShell: true` does this). */
function withPowerShell(context: ToolUseContext): ToolUseContext {
  return { ...context, options: { ...context.options, tools: [...context.options.tools, PowerShellTool] } };
}
afterEach(async () => {
  vi.unstubAllEnvs();
  await project?.cleanup();
  project = undefined;
});

/** A stand-in for pwsh: prints its directory and the decoded script; `sleep` in the script sleeps. */
function fakePwsh(dir: string): string {
  const path = join(dir, "fake-pwsh");
  writeFileSync(
    path,
    `#!/bin/bash
script=$(printf '%s' "\${@: -1}" | base64 -d | iconv -f UTF-16LE -t UTF-8)
echo "args: $1 $2 $3 $4"
echo "cwd: $(pwd)"
echo "script: $script"
case "$script" in *sleep*) sleep 30 ;; esac
exit 3
`,
  );
  chmodSync(path, 0o755);
  return path;
}

describe("PowerShell", () => {
  it("passes the script encoded, runs in the session's directory, and reports the exit code", async () => {
    project = await makeProject();
    vi.stubEnv("WARDEN_PWSH", fakePwsh(project.sessionDir));
    const result = await callTool(
      PowerShellTool,
      { command: "Get-ChildItem 'a b' | % { \"$_\" }" },
      withPowerShell(project.context),
    );
    const text = toolResultText(result.content);
    expect(text).toContain("args: -NoLogo -NoProfile -NonInteractive -EncodedCommand");
    expect(text).toContain(`cwd: ${project.dir}`);
    expect(text).toContain(`script: Get-ChildItem 'a b' | % { "$_" }`);
    expect(text).toContain("Exit code 3");
    expect(result.is_error).toBe(true);
  });

  it("says clearly that pwsh is missing, and runs nothing", async () => {
    project = await makeProject();
    vi.stubEnv("WARDEN_PWSH", join(project.dir, "no-such-pwsh"));
    const result = await callTool(PowerShellTool, { command: "Get-ChildItem" }, withPowerShell(project.context));
    expect(result.is_error).toBe(true);
    expect(toolResultText(result.content)).toContain("PowerShell 7 (pwsh) is not installed or not on PATH");
  });

  it("stops a script past its timeout", async () => {
    project = await makeProject();
    vi.stubEnv("WARDEN_PWSH", fakePwsh(project.sessionDir));
    const result = await callTool(
      PowerShellTool,
      { command: "Start-Sleep 30 # sleep", timeout: 500 },
      withPowerShell(project.context),
    );
    expect(toolResultText(result.content)).toContain("ran past its timeout");
  });

  it("decides through the PowerShell analysis: a deny rule refuses before anything runs", async () => {
    project = await makeProject([
      { source: "session", behavior: "deny", value: { toolName: "PowerShell", ruleContent: "Remove-Item:*" } },
    ]);
    vi.stubEnv("WARDEN_PWSH", fakePwsh(project.sessionDir));
    const decision = await allowUnlessDenied(
      PowerShellTool,
      { command: "gci | % { del $_ }" },
      project.context,
      undefined,
      "t",
    );
    expect(decision.behavior).toBe("deny");
  });
});
