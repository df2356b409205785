// Output styles (Claude Code's `outputStyle` setting): how the model talks to the person, not what
// it can do. A style is Markdown with optional frontmatter (`name`, `description`,
// `keep-coding-instructions`) in `.claude/output-styles/` or `.warden/output-styles/` of the user
// (~) or the project; the project's wins over the user's, and both over the built-ins of the same
// name. The chosen style's text joins the system prompt at the session's start, so the prompt
// (and its cache) stays the same for the whole session.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { withFileLockSync } from "../fs/file-lock.js";
import { parseFrontmatter } from "./frontmatter.js";
import { keepLocalSettingsOutOfGit } from "./local-settings-git.js";
import { userHome } from "./paths.js";
import { writeJsonFile } from "./plugins/registry-write.js";
import { readSettingsObjectForUpdate } from "./settings-object.js";

export interface OutputStyle {
  name: string;
  description: string;
  /** What joins the system prompt (empty for Default). */
  prompt: string;
  source: "built-in" | "user" | "project" | "plugin";
  path?: string;
}

export const DEFAULT_OUTPUT_STYLE = "default";

const BUILT_IN: readonly OutputStyle[] = [
  { name: "Default", description: "Warden's usual way of working", prompt: "", source: "built-in" },
  {
    name: "Explanatory",
    description: "Explains the choices it makes and the code base as it works",
    source: "built-in",
    prompt: `While you work, help the person understand what you do and why. Before and after writing code,
add short "Insight" notes (two or three points) about the choices you made: trade-offs, the
patterns of this code base you followed, and what someone new to it should know. Keep the notes
about this code, not general programming advice, and still finish the task.`,
  },
  {
    name: "Learning",
    description: "Works alongside the person, leaving small parts for them to write",
    source: "built-in",
    prompt: `The person wants to learn by doing. Work on the task together: explain your choices with short
"Insight" notes, and where a small, meaningful piece of code (a few lines of logic, a design
decision) would teach them something, leave it for them. Mark the place with a comment
\`TODO(human)\`, say exactly what it should do and why it matters, and wait for them to write it
before going on.`,
  },
];

function stylesIn(dir: string, source: OutputStyle["source"], warnings: string[], plugin?: string): OutputStyle[] {
  if (!existsSync(dir)) return [];
  const styles: OutputStyle[] = [];
  // A plugin may name one style file instead of a folder (plugin.json `outputStyles`).
  const single = dir.endsWith(".md") && statSync(dir).isFile();
  for (const entry of single ? [basename(dir)] : readdirSync(dir).sort()) {
    if (!entry.endsWith(".md")) continue;
    const path = single ? dir : join(dir, entry);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      warnings.push(`output style ${path} could not be read: ${(error as Error).message}`);
      continue;
    }
    // A plugin's styles carry its name first, as its commands do, so two plugins cannot collide.
    const named = (name: string) => (plugin === undefined ? name : `${plugin}:${name}`);
    const fallbackName = named(basename(entry, ".md"));
    if (!text.startsWith("---")) {
      styles.push({ name: fallbackName, description: "", prompt: text.trim(), source, path });
      continue;
    }
    const parsed = parseFrontmatter(text);
    if (!parsed.ok) {
      warnings.push(`output style ${path} was skipped: ${parsed.reason}`);
      continue;
    }
    const name =
      typeof parsed.data.name === "string" && parsed.data.name.trim() ? named(parsed.data.name.trim()) : fallbackName;
    const description = typeof parsed.data.description === "string" ? parsed.data.description : "";
    styles.push({ name, description, prompt: parsed.body.trim(), source, path });
  }
  return styles;
}

/** An active plugin's style folders or files (src/config/plugins/components.ts finds them). */
export interface PluginOutputStyles {
  plugin: string;
  paths: readonly string[];
}

/**
 * Every style the folder can use, later ones winning by name (case-insensitive): built-in, the
 * active plugins' (named `plugin:style`), user, project.
 */
export function loadOutputStyles(
  cwd: string,
  warnings: string[] = [],
  plugins: readonly PluginOutputStyles[] = [],
): OutputStyle[] {
  const home = userHome();
  const all = [
    ...BUILT_IN,
    ...plugins.flatMap((p) => p.paths.flatMap((path) => stylesIn(path, "plugin", warnings, p.plugin))),
    ...stylesIn(join(home, ".claude", "output-styles"), "user", warnings),
    ...stylesIn(join(home, ".warden", "output-styles"), "user", warnings),
    ...stylesIn(join(cwd, ".claude", "output-styles"), "project", warnings),
    ...stylesIn(join(cwd, ".warden", "output-styles"), "project", warnings),
  ];
  const byName = new Map<string, OutputStyle>();
  for (const style of all) byName.set(style.name.toLowerCase(), style);
  return [...byName.values()];
}

/** The style a session runs with: its name (as the init line and the status line say it) and prompt section. */
export interface ChosenOutputStyle {
  name: string;
  /** The system prompt's section (absent for Default and a style with no text). */
  section?: string;
}

/**
 * The style `name` names (the default one when absent). An unknown name is said in `warnings` and
 * the session keeps the default style.
 */
export function chooseOutputStyle(
  name: string | undefined,
  cwd: string,
  warnings: string[],
  plugins: readonly PluginOutputStyles[] = [],
): ChosenOutputStyle {
  if (name === undefined || name.toLowerCase() === DEFAULT_OUTPUT_STYLE) return { name: DEFAULT_OUTPUT_STYLE };
  const styles = loadOutputStyles(cwd, warnings, plugins);
  const style = styles.find((s) => s.name.toLowerCase() === name.toLowerCase());
  if (!style) {
    warnings.push(
      `outputStyle "${name}" names no output style (${styles.map((s) => s.name).join(", ")}); the default style is used`,
    );
    return { name: DEFAULT_OUTPUT_STYLE };
  }
  if (!style.prompt) return { name: style.name };
  return { name: style.name, section: `# Output style: ${style.name}\n${style.prompt}` };
}

/** The system prompt's section for the style `name` (undefined for Default); see chooseOutputStyle. */
export function outputStyleSection(name: string | undefined, cwd: string, warnings: string[]): string | undefined {
  return chooseOutputStyle(name, cwd, warnings).section;
}

/** Saves `outputStyle` in the project's .claude/settings.local.json (Claude Code's place); returns the file. */
export function saveOutputStyle(cwd: string, name: string): string {
  const path = join(cwd, ".claude", "settings.local.json");
  withFileLockSync(`${path}.lock`, () => {
    const settings = readSettingsObjectForUpdate(path);
    settings.outputStyle = name;
    writeJsonFile(path, settings);
  });
  keepLocalSettingsOutOfGit(path);
  return path;
}
