// PowerShell: runs a script with PowerShell 7 (`pwsh`) where it is installed. Its permission check
// is the PowerShell analysis (src/shell/powershell/, decided in src/permissions/powershell/), which
// works everywhere, pwsh or not: `warden permissions check PowerShell "..."` uses it. Offered when
// settings `powerShell: true` (docs/powershell.md).
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import type { PermissionResult } from "../../tool/permission-types.js";
import { sessionWorkingDirectory } from "../../tool/working-directory.js";
import { POWERSHELL_PROMPT } from "./prompt.js";
import { findPwsh, type PowerShellRun, runPowerShell } from "./run.js";

export const POWERSHELL_TOOL_NAME = "PowerShell";
export const POWERSHELL_DEFAULT_TIMEOUT_MS = 120_000;
export const POWERSHELL_MAX_TIMEOUT_MS = 600_000;

const inputSchema = z.lazy(() =>
  z.strictObject({
    command: z.string().min(1).describe("The PowerShell script to run"),
    timeout: z
      .number()
      .int()
      .positive()
      .max(POWERSHELL_MAX_TIMEOUT_MS)
      .optional()
      .describe(`Milliseconds before the script is stopped (default ${POWERSHELL_DEFAULT_TIMEOUT_MS})`),
    description: z.string().optional().describe("What the script does, in 5-10 words"),
  }),
);

export type PowerShellInput = z.infer<typeof inputSchema>;

export const PowerShellTool = buildTool<PowerShellInput, PowerShellRun>({
  name: POWERSHELL_TOOL_NAME,
  searchHint: "run powershell pwsh cmdlets script",
  shouldDefer: true,
  maxResultSizeChars: 30_000,
  inputSchema,
  prompt: async () => POWERSHELL_PROMPT,
  description: async (input) => input?.description ?? "Run a PowerShell script",
  isOpenWorld: () => true,
  toAutoClassifierInput: (input) => input.command,

  async checkPermissions(input, context) {
    const { checkPowerShellPermission } = await import("../../permissions/powershell/check.js");
    const result = await checkPowerShellPermission({
      command: input.command,
      cwd: sessionWorkingDirectory(context),
      permissionContext: context.getAppState().toolPermissionContext,
    });
    // The decision never rewrites the input: an allow carries none.
    return result as PermissionResult<PowerShellInput>;
  },

  async call(input, context) {
    const pwsh = findPwsh();
    if (!pwsh) {
      throw new Error(
        "PowerShell 7 (pwsh) is not installed or not on PATH, so the script was not run. Install PowerShell 7, set WARDEN_PWSH to its path, or use Bash.",
      );
    }
    const run = await runPowerShell(
      pwsh,
      input.command,
      sessionWorkingDirectory(context),
      input.timeout ?? POWERSHELL_DEFAULT_TIMEOUT_MS,
      context.abortController.signal,
    );
    return { data: run };
  },

  mapToolResult(run, toolUseId) {
    const parts = [run.stdout.trimEnd(), run.stderr.trimEnd()].filter(Boolean);
    if (run.truncated) parts.push("[output cut]");
    if (run.timedOut) parts.push("The script was stopped: it ran past its timeout.");
    if (run.interrupted) parts.push("The script was interrupted.");
    if (run.exitCode !== 0 && run.exitCode !== null) parts.push(`Exit code ${run.exitCode}`);
    const failed = run.timedOut || run.interrupted || (run.exitCode ?? 1) !== 0;
    return {
      type: "tool_result",
      tool_use_id: toolUseId,
      content: parts.join("\n") || "(no output)",
      ...(failed ? { is_error: true } : {}),
    };
  },
});
