// Asked once per project, before the session starts, when its memory files (CLAUDE.md, AGENTS.md)
// import files from outside it: those would go into every request. The answer is remembered for
// the project (config/memory-approval.ts); headless sessions never ask and leave them out.
import { Box, Text } from "ink";
import { useYesNo } from "./use-yes-no.js";

const SHOWN = 8;

export function ExternalImportsPrompt({
  project,
  files,
  onAnswer,
}: {
  project: string;
  files: readonly string[];
  onAnswer(approved: boolean): void;
}) {
  const selected = useYesNo(1, onAnswer);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold color="yellow">
        This project's memory files import files from outside it
      </Text>
      <Text>{project}</Text>
      <Text>Loading them would send their contents to the model with every request:</Text>
      {files.slice(0, SHOWN).map((file) => (
        <Text key={file}>
          {"  "}
          {file}
        </Text>
      ))}
      {files.length > SHOWN ? <Text dimColor>{`  and ${files.length - SHOWN} more`}</Text> : null}
      <Text dimColor>Your answer is remembered for this project.</Text>
      <Text color={selected === 0 ? "cyan" : undefined}>{selected === 0 ? "❯ " : "  "}1. Yes, load them</Text>
      <Text color={selected === 1 ? "cyan" : undefined}>{selected === 1 ? "❯ " : "  "}2. No, leave them out</Text>
    </Box>
  );
}
