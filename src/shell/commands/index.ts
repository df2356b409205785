// What one simple command runs and touches: wrappers peeled (`timeout 5 rm`, `sudo rm`,
// `sh -c '...'`), environment assignments judged, and the files its words write.

export { codeRunnerReason } from "./code-runners.js";
export type { CommandPart, PartOrigin } from "./command-parts.js";
export { isDangerousEnvVar, isSafeEnvVar } from "./env-vars.js";
export { type HiddenCode, hiddenCodeOf, stringLiterals } from "./hidden-code.js";
export { isDeviceSink, resolveWordPath, writeTargetsOf } from "./paths.js";
export { type ProgramOption, programOptionOf } from "./program-options.js";
export { type CommandView, type Unwrapping, unwrapCommand } from "./wrappers.js";
