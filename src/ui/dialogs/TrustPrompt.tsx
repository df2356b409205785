// Workspace trust, asked the first time a folder's own settings would widen what Warden may do
// (and again when they change): before any of its hooks, MCP servers or allow rules are used.
import { Box, Text } from "ink";
import type { WorkspaceTrust } from "../../config/trust/index.js";
import { useYesNo } from "./use-yes-no.js";

export function TrustPrompt({ trust, onAnswer }: { trust: WorkspaceTrust; onAnswer(trusted: boolean): void }) {
  const selected = useYesNo(0, onAnswer);
  const known = trust.widening.filter((w) => w.known);
  const other = trust.widening.filter((w) => !w.known);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold color="yellow">
        Do you trust the files in this folder?
      </Text>
      <Text>{trust.folder}</Text>
      {trust.changedSinceTrusted ? <Text>You trusted it before, but its settings have changed since.</Text> : null}
      <Text>Its own settings would let Warden:</Text>
      {known.map((w) => (
        // A grant too long for the terminal (a hook's command) goes on under its own text.
        <Box key={`${w.file}:${w.key}`}>
          <Box width={2} flexShrink={0} />
          <Box flexGrow={1} flexShrink={1}>
            <Text>
              {w.file} <Text bold>{w.key}</Text>: {w.grants}
            </Text>
          </Box>
        </Box>
      ))}
      {other.length > 0 ? (
        <Text dimColor>Also held back: {other.map((w) => `${w.file} ${w.key}`).join(", ")}</Text>
      ) : null}
      <Text dimColor>Until you trust it, they only restrict (deny and ask rules still apply).</Text>
      <Text color={selected === 0 ? "cyan" : undefined}>{selected === 0 ? "❯ " : "  "}1. Yes, I trust this folder</Text>
      <Text color={selected === 1 ? "cyan" : undefined}>{selected === 1 ? "❯ " : "  "}2. No, exit</Text>
    </Box>
  );
}
