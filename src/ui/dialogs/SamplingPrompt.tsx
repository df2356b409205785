// An MCP server asks for a completion from the session's model (sampling). The person sees who
// asks and what would be sent (the system prompt and the messages, one line each, the last few
// when there are many) and how long an answer the server wants, then chooses with the arrow keys
// and Enter or the number keys: 1 Yes; 2 Yes, and always for this server (written to the user's
// settings as `mcpSamplingServers`); 3 No, which the server receives as a refusal. Esc is No.
import type { CreateMessageRequestParams } from "@modelcontextprotocol/sdk/types.js";
import { Box, Text } from "ink";
import { useRef, useState } from "react";
import { userSettingsPath } from "../../config/paths.js";
import type { KeyEvent } from "../input/keys.js";
import { useKeys } from "../input/use-keys.js";
import { displayPath } from "../transcript/tool-summary.js";
import type { PendingSampling, SamplingChoice } from "./sampling-queue.js";

/** The messages shown at most; earlier ones are counted, not shown. */
const SHOWN_MESSAGES = 4;
const LINE_CHARS = 160;

export function SamplingPrompt({ pending, cwd }: { pending: PendingSampling; cwd: string }) {
  const { server, params } = pending.question;
  const [selected, setSelected] = useState(0);
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  const choices: ReadonlyArray<{ label: string; choice: SamplingChoice }> = [
    { label: "Yes", choice: "yes" },
    { label: `Yes, and always for "${server}"`, choice: "always" },
    { label: "No", choice: "no" },
  ];

  useKeys((event: KeyEvent) => {
    if (event.kind === "text") {
      const digit = Number(event.text);
      if (Number.isInteger(digit) && digit >= 1 && digit <= choices.length)
        pending.answer((choices[digit - 1] as (typeof choices)[number]).choice);
      return;
    }
    if (event.kind !== "key") return;
    if (event.name === "up") setSelected((s) => (s + choices.length - 1) % choices.length);
    else if (event.name === "down") setSelected((s) => (s + 1) % choices.length);
    else if (event.name === "enter") pending.answer((choices[selectedRef.current] as (typeof choices)[number]).choice);
    else if (event.name === "escape") pending.answer("no");
  });

  const lines = messageLines(params);
  const temperature = params.temperature !== undefined ? `, temperature ${params.temperature}` : "";
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold color="yellow">
        MCP server "{server}" asks for a completion from the model
      </Text>
      {params.systemPrompt ? <Text>System prompt: {oneLine(params.systemPrompt)}</Text> : null}
      {lines.hidden > 0 ? <Text dimColor>({lines.hidden} earlier messages)</Text> : null}
      {lines.shown.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: messages are positional
        <Text key={index}>{line}</Text>
      ))}
      <Text dimColor>{`Up to ${params.maxTokens} tokens${temperature}; counted in this session's cost`}</Text>
      <Text>Do you want to allow it?</Text>
      {choices.map((c, index) => (
        <Text key={c.choice} color={index === selected ? "cyan" : undefined}>
          {index === selected ? "❯ " : "  "}
          {index + 1}. {c.label}
          {c.choice === "always" ? <Text dimColor> (in {displayPath(userSettingsPath(), cwd)})</Text> : null}
        </Text>
      ))}
      <Text dimColor>↑/↓ and Enter, or 1-{choices.length}; Esc declines</Text>
    </Box>
  );
}

type SamplingContent = CreateMessageRequestParams["messages"][number]["content"];

/** Each message as `role: text`, the last few only. */
function messageLines(params: CreateMessageRequestParams): { shown: string[]; hidden: number } {
  const all = params.messages.map((m) => `${m.role}: ${oneLine(contentText(m.content))}`);
  const shown = all.slice(-SHOWN_MESSAGES);
  return { shown, hidden: all.length - shown.length };
}

function contentText(content: SamplingContent): string {
  const parts = Array.isArray(content) ? content : [content];
  return parts.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join(" ");
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > LINE_CHARS ? `${flat.slice(0, LINE_CHARS - 1)}…` : flat;
}
