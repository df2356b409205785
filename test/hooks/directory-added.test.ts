// DirectoryAdded: a working folder added mid-session (/add-dir, the SDK's register_repo_root) is
// told to the hooks with its absolute path and how it came, through the session's command.
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSessionCommands } from "../../src/control/session-commands.js";
import { hookedSession, recordingHook, tempDir } from "./helpers/hook-session.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-dir-added-home-"));
process.env.HOME = process.env.WARDEN_HOME;
process.env.WARDEN_MANAGED_SETTINGS = join(process.env.WARDEN_HOME, "no-policy.json");

describe("DirectoryAdded", () => {
  it("fires after a folder is added, with directory and source; the folder is a working folder", async () => {
    const cwd = tempDir("warden-dir-added-");
    const extra = join(cwd, "libs");
    mkdirSync(extra);
    const added = recordingHook(cwd, "added");
    const { session } = hookedSession(cwd, [], { DirectoryAdded: [{ hooks: [added.command] }] });
    const commands = createSessionCommands(session);
    const result = await commands.addWorkingDirectory(extra, "slash_command");
    expect(result.errors).toEqual([]);
    expect(session.getAppState().toolPermissionContext.workingDirectories).toContain(extra);
    await commands.addWorkingDirectory(join(cwd, "libs"), "register_repo_root");
    expect(added.inputs()).toEqual([
      expect.objectContaining({
        hook_event_name: "DirectoryAdded",
        session_id: "s-hooks",
        directory: extra,
        source: "slash_command",
      }),
      expect.objectContaining({ hook_event_name: "DirectoryAdded", directory: extra, source: "register_repo_root" }),
    ]);
  });

  it("a failing hook is reported and does not undo the folder", async () => {
    const cwd = tempDir("warden-dir-added-");
    const { session } = hookedSession(cwd, [], {
      DirectoryAdded: [{ hooks: [{ type: "command", command: "echo 'cannot index' >&2; exit 1" }] }],
    });
    const extra = join(cwd, "docs");
    mkdirSync(extra);
    const result = await createSessionCommands(session).addWorkingDirectory(extra, "slash_command");
    expect(result.errors.join("\n")).toContain("cannot index");
    expect(session.getAppState().toolPermissionContext.workingDirectories).toContain(extra);
  });
});
