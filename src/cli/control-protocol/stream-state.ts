// What a stream-json session holds once built: the session, its reporter, the SDK's in-process
// MCP servers, and an interrupt that came while a turn was starting.
import type { HeadlessReporter } from "../headless/output.js";
import type { BuiltSession } from "../session/start.js";
import type { ControlChannel } from "./channel.js";
import type { FileCheckpoints } from "./file-checkpoints.js";
import type { FlagSettingsLayer } from "./flag-settings.js";
import type { SdkMcpServer } from "./sdk-mcp.js";

export interface StreamState {
  built: BuiltSession;
  reporter: HeadlessReporter;
  /** The SDK's in-process servers: those of initialize, then as mcp_set_servers leaves them. */
  sdkServers: SdkMcpServer[];
  /** The wire to the SDK (in-process servers added later are reached through it). */
  channel: ControlChannel;
  /**
   * Set by an interrupt: one that comes while the turn is starting, before the engine runs the
   * prompt, still stops it at its first event.
   */
  interruptRequested: boolean;
  /** The settings applied with apply_flag_settings (made at the first). */
  flagSettings?: FlagSettingsLayer;
  /** Problems worth telling the person (stderr), not the SDK. */
  warn: (message: string) => void;
  /**
   * Drops a user message still waiting for its turn (cancel_async_message); false when it is not
   * waiting (already taken, or never seen).
   */
  cancelQueued: (uuid: string) => boolean;
  /** Time the session has run and spent waiting on the model, for get_usage and get_session_cost. */
  totals: { startedAt: number; apiMs: number };
  /** Set with file checkpointing (--enable-file-checkpointing, or the SDK's enableFileCheckpointing). */
  checkpoints?: FileCheckpoints;
}
