// Adding, updating, listing and removing marketplaces: a folder holding
// `.claude-plugin/marketplace.json`, or a git repository holding one (a URL, or `owner/repo` on
// GitHub). A repository is cloned with Warden's hardened git (src/fs/git-run.ts: hooks, filters
// and other configured programs off), so adding a marketplace runs nothing it ships.
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { runGit } from "../../fs/git-run.js";
import { type MarketplaceManifest, readMarketplaceManifest } from "./manifest.js";
import { marketplaceClonePath, pluginsHome } from "./paths.js";
import { type KnownMarketplace, type MarketplaceSource, readKnownMarketplaces } from "./registry.js";
import { writeKnownMarketplaces } from "./registry-write.js";

const GITHUB_SHORTHAND = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const GIT_URL = /^(https?:\/\/|ssh:\/\/|git:\/\/|file:\/\/|[\w.-]+@[\w.-]+:)/;

/** What the user typed, as a source: an existing folder, a git URL, or GitHub's `owner/repo`. */
export function parseMarketplaceSource(input: string, cwd: string): MarketplaceSource {
  const [url, ref] = input.split("#", 2) as [string, string | undefined];
  if (GIT_URL.test(url)) return { source: "git", url, ...(ref ? { ref } : {}) };
  const folder = resolve(cwd, input);
  if (existsSync(folder)) {
    if (!statSync(folder).isDirectory()) throw new Error(`${folder} is not a folder`);
    return { source: "directory", path: folder };
  }
  // A path as the user writes one (./x, ../x, /x, ~/x) is a folder that is missing, never owner/repo.
  if (/^(\.{1,2}|~)?\//.test(input)) throw new Error(`${folder}: no such folder`);
  if (GITHUB_SHORTHAND.test(url)) return { source: "github", repo: url, ...(ref ? { ref } : {}) };
  throw new Error(`${input} is neither a folder, a git URL nor a GitHub owner/repo`);
}

function cloneUrl(source: Exclude<MarketplaceSource, { source: "directory" }>): string {
  return source.source === "github" ? `https://github.com/${source.repo}.git` : source.url;
}

/** A shallow clone of `url` into `dest` (which must not exist), with the repository's programs off. */
export async function cloneRepository(url: string, dest: string, ref?: string): Promise<void> {
  // A name starting with "-" would be read as an option; `--` keeps it a URL.
  const home = pluginsHome();
  mkdirSync(home, { recursive: true });
  try {
    await runGit(home, ["clone", "--depth", "1", ...(ref ? ["--branch", ref] : []), "--", url, dest]);
  } catch (error) {
    // git's own words (its `fatal:` line), not the hardened command line around them.
    const message = (error as Error).message;
    const fatal = /^fatal: (.*)$/m.exec(message)?.[1];
    throw new Error(`cannot clone ${url}${ref ? ` (${ref})` : ""}: ${fatal ?? message}`);
  }
}

/** The marketplace's manifest, with why it cannot be read as an Error naming the file. */
export function readMarketplace(entry: KnownMarketplace): MarketplaceManifest {
  return readMarketplaceManifest(entry.installLocation);
}

export interface AddedMarketplace {
  name: string;
  entry: KnownMarketplace;
  manifest: MarketplaceManifest;
}

export async function addMarketplace(input: string, cwd: string): Promise<AddedMarketplace> {
  return addMarketplaceSource(parseMarketplaceSource(input, cwd));
}

export async function addMarketplaceSource(source: MarketplaceSource): Promise<AddedMarketplace> {
  const known = readKnownMarketplaces();
  const now = new Date().toISOString();
  if (source.source === "directory") {
    const manifest = readMarketplaceManifest(source.path);
    refuseTaken(known, manifest.name, source);
    const entry: KnownMarketplace = { source, installLocation: source.path, lastUpdated: now };
    writeKnownMarketplaces({ ...known, [manifest.name]: entry });
    return { name: manifest.name, entry, manifest };
  }
  // Cloned beside the others under a temporary name: the marketplace's name is in its manifest.
  const temp = join(pluginsHome(), "marketplaces", `.adding-${process.pid}-${Date.now()}`);
  mkdirSync(join(pluginsHome(), "marketplaces"), { recursive: true });
  try {
    await cloneRepository(cloneUrl(source), temp, source.ref);
    const manifest = readMarketplaceManifest(temp);
    refuseTaken(known, manifest.name, source);
    const dest = marketplaceClonePath(manifest.name);
    rmSync(dest, { recursive: true, force: true });
    renameSync(temp, dest);
    const entry: KnownMarketplace = { source, installLocation: dest, lastUpdated: now };
    writeKnownMarketplaces({ ...known, [manifest.name]: entry });
    return { name: manifest.name, entry, manifest };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

function sameSource(a: MarketplaceSource, b: MarketplaceSource): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function refuseTaken(known: Record<string, KnownMarketplace>, name: string, source: MarketplaceSource): void {
  const existing = known[name];
  if (existing && !sameSource(existing.source, source)) {
    throw new Error(
      `a marketplace named ${name} is already added from ${describeSource(existing.source)}; remove it first (warden plugin marketplace remove ${name})`,
    );
  }
}

export function describeSource(source: MarketplaceSource | Record<string, unknown>): string {
  const s = source as Record<string, unknown>;
  if (s.source === "directory") return String(s.path);
  if (s.source === "github") return `github:${String(s.repo)}`;
  return String(s.url ?? s.path ?? s.repo ?? JSON.stringify(source));
}

/** Fetches a cloned marketplace again (a folder is read where it is: nothing to fetch). */
export async function updateMarketplace(name: string): Promise<MarketplaceManifest> {
  const known = readKnownMarketplaces();
  const entry = known[name];
  if (!entry) throw new Error(`no marketplace named ${name} (warden plugin marketplace list)`);
  if (entry.source.source !== "directory") {
    await runGit(entry.installLocation, ["fetch", "--depth", "1", "origin", entry.source.ref ?? "HEAD"]);
    await runGit(entry.installLocation, ["reset", "--hard", "FETCH_HEAD"]);
  }
  const manifest = readMarketplaceManifest(entry.installLocation);
  writeKnownMarketplaces({ ...known, [name]: { ...entry, lastUpdated: new Date().toISOString() } });
  return manifest;
}

/** Forgets a marketplace; its clone (never a folder the user pointed at) is deleted. */
export function removeMarketplace(name: string): void {
  const known = readKnownMarketplaces();
  const entry = known[name];
  if (!entry) throw new Error(`no marketplace named ${name} (warden plugin marketplace list)`);
  const { [name]: _removed, ...rest } = known;
  writeKnownMarketplaces(rest);
  const ours = relative(join(pluginsHome(), "marketplaces"), entry.installLocation);
  if (entry.source.source !== "directory" && ours !== "" && !ours.startsWith("..") && !ours.includes(sep)) {
    rmSync(entry.installLocation, { recursive: true, force: true });
  }
}
