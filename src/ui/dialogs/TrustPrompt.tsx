// Workspace trust, asked the first time a folder's own settings would widen what Warden may do
// (and again when they change): before any of its hooks, MCP servers or allow rules are used.
import { Box, Text } from "ink";
import { useState } from "react";
import type { WorkspaceTrust } from "../../config/trust/index.js";
import { useKeys } from "../input/use-keys.js";

export function TrustPrompt({ trust, onAnswer }: { trust: WorkspaceTrust; onAnswer(trusted: boolean): void }) {
  const [selected, setSelected] = useState(0);
  useKeys((event) => {
    if (event.kind === "text" && (event.text === "1" || event.text === "2")) onAnswer(event.text === "1");
    else if (event.kind !== "key") return;
    else if (event.name === "up" || event.name === "down") setSelected((s) => 1 - s);
    else if (event.name === "enter") onAnswer(selected === 0);
    else if (event.name === "escape" || event.name === "ctrlC") onAnswer(false);
  });
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
        <Text key={`${w.file}:${w.key}`}>
          {"  "}
          {w.file} <Text bold>{w.key}</Text>: {w.grants}
        </Text>
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
