// /add-dir PATH: another folder the session may work in, as `--add-dir` gives at start. Files in a
// working folder are read without asking and edited under the mode's rules (deny rules and
// protected paths still hold). For this session, or saved in .warden/settings.local.json
// (`permissions.additionalDirectories`) for later sessions in this folder too.
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { persistPermissionUpdate } from "../../permissions/settings/index.js";
import type { PermissionUpdate } from "../../tool/permission-types.js";
import { displayPath } from "../transcript/tool-summary.js";
import type { SlashCommand } from "./slash-commands.js";

export const addDirCommand: SlashCommand = {
  name: "add-dir",
  argumentHint: "[path]",
  description: "Add a working folder for this session (or save it for this project)",
  run: async (ctx, args) => {
    const engine = ctx.handle.engine;
    if (!args) {
      const dirs = engine.getAppState().toolPermissionContext.workingDirectories;
      ctx.transcript.addNotice(
        ["Working folders:", ...dirs.map((dir) => `  ${dir}`), "Add one with /add-dir PATH."].join("\n"),
      );
      return;
    }
    const path = resolve(engine.cwd, args.replace(/^~(?=$|\/)/, homedir()));
    let isFolder = false;
    try {
      isFolder = statSync(path).isDirectory();
    } catch {
      ctx.transcript.addNotice(`/add-dir: ${path} does not exist.`, "error");
      return;
    }
    if (!isFolder) {
      ctx.transcript.addNotice(`/add-dir: ${path} is not a folder.`, "error");
      return;
    }
    if (engine.getAppState().toolPermissionContext.workingDirectories.some((dir) => resolve(dir) === path)) {
      ctx.transcript.addNotice(`${path} is already a working folder.`);
      return;
    }
    const where = await ctx.pick(`Add ${path} as a working folder`, [
      { label: "For this session", value: "session" },
      { label: "For this session and later ones here (.warden/settings.local.json)", value: "localSettings" },
    ]);
    if (where !== "session" && where !== "localSettings") return;
    const update: PermissionUpdate = { type: "addDirectories", directories: [path], destination: where };
    let file: string | undefined;
    try {
      file = persistPermissionUpdate(update, engine.cwd);
    } catch (error) {
      ctx.transcript.addNotice(`/add-dir: ${error instanceof Error ? error.message : String(error)}`, "error");
      return;
    }
    const { errors } = await ctx.handle.commands.addWorkingDirectory(path, "slash_command", where);
    ctx.transcript.addNotice(
      `Added ${path} as a working folder${file ? ` (saved in ${displayPath(file, engine.cwd)})` : " for this session"}.`,
    );
    for (const error of errors) ctx.transcript.addNotice(`DirectoryAdded hook: ${error}`, "error");
  },
};
