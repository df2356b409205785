// The line under the prompt: the permission mode (always visible, Shift+Tab cycles it), tokens
// used, how much of the context window is left, and what the session has cost.
import { Box, Text } from "ink";
import type { PermissionMode } from "../../tool/permission-types.js";

export interface StatusInfo {
  mode: PermissionMode;
  /** Tokens sent and received over the session. */
  inputTokens: number;
  outputTokens: number;
  /** 0..100, undefined before the first request. */
  contextLeftPercent?: number;
  /** null when the model's price is unknown. */
  costUsd: number | null;
  model: string;
  /** A short hint that replaces the usual one (e.g. "Press Ctrl+C again to exit"). */
  hint?: string;
}

const MODE_LABELS: Record<PermissionMode, string> = {
  default: "default mode",
  acceptEdits: "⏵⏵ accept edits on",
  plan: "⏸ plan mode on",
  bypassPermissions: "⏵⏵ bypass permissions on",
  dontAsk: "don't-ask mode",
  auto: "auto mode",
};

const MODE_COLORS: Partial<Record<PermissionMode, string>> = {
  acceptEdits: "magenta",
  plan: "cyan",
  bypassPermissions: "red",
  auto: "yellow",
};

export function modeLabel(mode: PermissionMode): string {
  return MODE_LABELS[mode] ?? mode;
}

export function formatTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

export function StatusLine({ status }: { status: StatusInfo }) {
  const usage = `${formatTokens(status.inputTokens + status.outputTokens)} tokens`;
  const context =
    status.contextLeftPercent === undefined ? "" : ` · ${Math.round(status.contextLeftPercent)}% context left`;
  const cost = status.costUsd === null ? "" : ` · $${status.costUsd.toFixed(status.costUsd < 1 ? 4 : 2)}`;
  return (
    <Box justifyContent="space-between" flexWrap="wrap">
      <Text>
        <Text color={MODE_COLORS[status.mode]}>{modeLabel(status.mode)}</Text>
        {/* A hint is a sentence of its own: set apart, not read as part of the mode's name. */}
        <Text dimColor>{status.hint ? ` · ${status.hint}` : " (shift+tab to cycle)"}</Text>
      </Text>
      <Text dimColor>
        {usage}
        {context}
        {cost}
      </Text>
    </Box>
  );
}
