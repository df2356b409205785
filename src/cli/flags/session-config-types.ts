// What the command line says about a session and the error a bad command line gets. The session
// itself is described by SessionSpec (session/spec.ts), which every front end builds; the command
// line's name for it is SessionConfig. The flags are in session-flag-table.ts, the parser in
// session-config.ts, the checks that turn parsed flags into a spec in session-config-build.ts.
export type { SessionSpec as SessionConfig } from "../session/spec.js";
export {
  type InputFormat,
  type OutputFormat,
  SETTING_SOURCES,
  type SettingSource,
} from "../session/spec-rules.js";
export { UsageError } from "./usage-error.js";
