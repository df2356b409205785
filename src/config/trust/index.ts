// Workspace trust: a folder's own settings restrict at once and widen only once the user trusts
// the folder. The settings loader applies it; `warden trust` and the interactive UI record it.
export { type ApplyWorkspaceTrustOptions, applyWorkspaceTrust, type TrustableSettingsFile } from "./apply.js";
export { howToTrust, untrustedNotice } from "./describe.js";
export { recordTrustedFolder, removeTrustedFolder, trustIdentity } from "./trusted-folders.js";
export {
  isWorkspaceTrusted,
  type TrustedFolderEntry,
  type WideningSetting,
  type WorkspaceTrust,
  type WorkspaceTrustStatus,
} from "./types.js";
