// The `yaml` package, loaded synchronously on first use. Every frontmatter parser (skills and
// commands, agents) and the workspace trust check that must judge the same files at start-up use
// this one load, so trust is decided by the very parser, version and options the loaders use; and
// a session without such files never loads it. Synchronous because the settings loader, which
// applies trust, is.
import { createRequire } from "node:module";

type YamlModule = typeof import("yaml");

let loaded: YamlModule | undefined;

export function yamlModule(): YamlModule {
  loaded ??= createRequire(import.meta.url)("yaml") as YamlModule;
  return loaded;
}
