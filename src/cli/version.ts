// The CLI reports the package version found by config/version.ts (transcripts record it too).
export { wardenVersion } from "../config/version.js";
