// A list to choose from (/resume's sessions, /model's models): arrows and Enter, or the number.
import { Box, Text } from "ink";
import { useState } from "react";
import { useKeys } from "../input/use-keys.js";

export interface PickListProps {
  title: string;
  choices: ReadonlyArray<{ label: string; value: string }>;
  onPick(value: string | undefined): void;
  /** Rows shown at once; the list scrolls with the selection. */
  rows?: number;
}

export function PickList({ title, choices, onPick, rows = 10 }: PickListProps) {
  const [selected, setSelected] = useState(0);
  useKeys((event) => {
    if (event.kind === "text") {
      const n = Number(event.text);
      if (Number.isInteger(n) && n >= 1 && n <= Math.min(9, choices.length)) onPick(choices[n - 1]?.value);
      return;
    }
    if (event.kind !== "key") return;
    if (event.name === "up") setSelected((s) => Math.max(0, s - 1));
    else if (event.name === "down") setSelected((s) => Math.min(choices.length - 1, s + 1));
    else if (event.name === "enter") onPick(choices[selected]?.value);
    else if (event.name === "escape" || event.name === "ctrlC") onPick(undefined);
  });
  const first = Math.max(0, Math.min(selected - Math.floor(rows / 2), choices.length - rows));
  const shown = choices.slice(first, first + rows);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>{title}</Text>
      {choices.length === 0 ? <Text dimColor>(nothing to choose)</Text> : null}
      {shown.map((choice, i) => {
        const index = first + i;
        return (
          <Text key={choice.value} color={index === selected ? "cyan" : undefined}>
            {index === selected ? "❯ " : "  "}
            {index < 9 ? `${index + 1}. ` : "   "}
            {choice.label}
          </Text>
        );
      })}
      <Text dimColor>
        ↑/↓ and Enter{choices.length > 1 ? `, or 1-${Math.min(9, choices.length)}` : ""}; Esc cancels
      </Text>
    </Box>
  );
}
