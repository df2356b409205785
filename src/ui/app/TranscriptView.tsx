// How each finished item of the transcript looks, and the live part below them.
import { Box, Static, Text } from "ink";
import type { ReactNode } from "react";
import type { BackgroundTask } from "../../tool/shell-state.js";
import type { TaskListSnapshot } from "../../tool/task-list.js";
import { DiffView, diffLines, diffStats } from "../components/DiffView.js";
import { Markdown } from "../components/Markdown.js";
import { SHOWN_SUBAGENT_CALLS, type SubagentProgress } from "../transcript/subagent-activity.js";
import type { RunningTool, TranscriptItem } from "../transcript/transcript-model.js";

/**
 * The finished items, printed once above the live part. ink's Static box is positioned absolutely,
 * so without a width of its own its lines were laid out a few columns wider than the terminal and
 * the terminal wrapped their ends back to column 0.
 */
export function FinishedItems({ items, width }: { items: TranscriptItem[]; width: number }) {
  return (
    <Static items={items} style={{ width }}>
      {(item) => <ItemView key={item.id} item={item} />}
    </Static>
  );
}

export function ItemView({ item }: { item: TranscriptItem }) {
  switch (item.kind) {
    case "user":
      return (
        <Box marginTop={1}>
          <Marked marker="> " color="gray">
            <Text color="gray">{item.text}</Text>
          </Marked>
        </Box>
      );
    case "assistant":
      return (
        <Box marginTop={1}>
          <Marked>
            <Markdown text={item.text} />
          </Marked>
        </Box>
      );
    case "thinking":
      return (
        <Box marginTop={1} flexDirection="column">
          <Text dimColor italic>
            ✻ Thinking…
          </Text>
          <Text dimColor italic>
            {item.text}
          </Text>
        </Box>
      );
    case "tool": {
      const stats = item.edit ? diffStats(diffLines(item.edit.oldText, item.edit.newText)) : undefined;
      return (
        <Box marginTop={1} flexDirection="column">
          <Marked color={item.result.isError ? "red" : "green"}>
            <Text bold>{item.summary}</Text>
          </Marked>
          {stats ? (
            <Text>
              {"  ⎿  "}Added {stats.added} line{stats.added === 1 ? "" : "s"}, removed {stats.removed} line
              {stats.removed === 1 ? "" : "s"}
            </Text>
          ) : (
            item.result.lines.map((line, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional
              <Indented key={index} prefix={index === 0 ? "  ⎿  " : "     "}>
                <Text color={item.result.isError ? "red" : undefined} dimColor={!item.result.isError}>
                  {line}
                </Text>
              </Indented>
            ))
          )}
          {item.result.hidden > 0 && !stats ? <Text dimColor>{`     … +${item.result.hidden} lines`}</Text> : null}
          {item.edit ? (
            <Box paddingLeft={5}>
              <DiffView oldText={item.edit.oldText} newText={item.edit.newText} firstLine={item.edit.firstLine} />
            </Box>
          ) : null}
        </Box>
      );
    }
    case "plan":
      return (
        <Box marginTop={1} flexDirection="column">
          <Text color="green">● User approved the plan:</Text>
          <Box paddingLeft={2} flexDirection="column">
            <Markdown text={item.text} />
          </Box>
        </Box>
      );
    case "notice":
      return (
        <Box marginTop={1}>
          <Text
            color={item.tone === "error" ? "red" : item.tone === "warning" ? "yellow" : undefined}
            dimColor={item.tone === "info"}
          >
            {item.text}
          </Text>
        </Box>
      );
  }
}

/**
 * A block (a prompt, an answer, a call) after its marker (`> `, `● `). The marker keeps its width: beside a word too
 * long for the line (a URL, a long path), a shrinkable marker lost its space ("●Bash(...") and the
 * wrapped rest started at column 0 or 1.
 */
export function Marked({ marker = "● ", color, children }: { marker?: string; color?: string; children: ReactNode }) {
  return (
    <Box>
      <Box width={marker.length} flexShrink={0}>
        <Text color={color}>{marker}</Text>
      </Box>
      <Box flexGrow={1} flexShrink={1}>
        {children}
      </Box>
    </Box>
  );
}

/** A line under a block's marker: when it wraps, it goes on under its own first character. */
function Indented({ prefix, children }: { prefix: string; children: ReactNode }) {
  return (
    <Box>
      <Box width={prefix.length} flexShrink={0}>
        <Text dimColor>{prefix}</Text>
      </Box>
      <Box flexGrow={1} flexShrink={1}>
        {children}
      </Box>
    </Box>
  );
}

export function RunningToolView({
  tool,
  now,
  asking = false,
  subagent,
}: {
  tool: RunningTool;
  now: number;
  /** The call waits for the person's answer: no time is shown, the tool has not started. */
  asking?: boolean;
  subagent?: SubagentProgress;
}) {
  const seconds = asking ? 0 : Math.floor((now - tool.startedAt) / 1000);
  const lastLines = tool.progress?.output.replace(/\s+$/, "").split("\n").slice(-5) ?? [];
  return (
    <Box marginTop={1} flexDirection="column">
      <Marked color="yellow">
        <Text>
          <Text bold>{tool.summary}</Text>
          {seconds >= 2 ? (
            <Text dimColor>
              {" "}
              ({seconds}s{tool.progress ? " · ctrl+b to run in background" : ""})
            </Text>
          ) : null}
        </Text>
      </Marked>
      {tool.status ? (
        <Indented prefix="     ⎿ ">
          <Text dimColor>{tool.status}</Text>
        </Indented>
      ) : null}
      {lastLines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional
        <Indented key={index} prefix="     ">
          <Text dimColor>{line}</Text>
        </Indented>
      ))}
      {tool.progress && tool.progress.totalLines > lastLines.length ? (
        <Text dimColor>{`     (${tool.progress.totalLines} lines so far)`}</Text>
      ) : null}
      {subagent ? <SubagentCallsView progress={subagent} /> : null}
    </Box>
  );
}

/** A subagent's latest calls under its Agent call, the earlier ones as a count. */
function SubagentCallsView({ progress }: { progress: SubagentProgress }) {
  const shown = progress.calls.slice(-SHOWN_SUBAGENT_CALLS);
  const earlier = progress.calls.length - shown.length;
  if (shown.length === 0)
    return (
      <Indented prefix="  ⎿  ">
        <Text dimColor>Starting…</Text>
      </Indented>
    );
  return (
    <>
      {shown.map((call, index) => (
        <Indented key={call.id} prefix={index === 0 ? "  ⎿  " : "     "}>
          <Text color={call.state === "error" ? "red" : undefined} dimColor={call.state !== "error"}>
            {call.summary}
            {call.state === "running" ? " …" : ""}
          </Text>
        </Indented>
      ))}
      {earlier > 0 ? <Text dimColor>{`     +${earlier} more tool use${earlier === 1 ? "" : "s"}`}</Text> : null}
    </>
  );
}

/** A background agent at work: its Agent call has returned, its calls are shown here until it ends. */
export function BackgroundAgentView({ progress, now }: { progress: SubagentProgress; now: number }) {
  const seconds = Math.max(0, Math.floor((now - progress.startedAt) / 1000));
  return (
    <Box marginTop={1} flexDirection="column">
      <Text>
        <Text color="yellow">● </Text>
        <Text bold>{progress.label ?? "Agent"}</Text>
        <Text dimColor>{` (in the background · ${seconds}s)`}</Text>
      </Text>
      <SubagentCallsView progress={progress} />
    </Box>
  );
}

export function TodoPanel({ list }: { list: TaskListSnapshot }) {
  const items = todoLines(list);
  if (items.length === 0) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      {items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: items are positional
        <Text key={index} dimColor={item.status === "completed"} strikethrough={item.status === "completed"}>
          {item.status === "completed" ? "  ☒ " : item.status === "in_progress" ? "  ◼ " : "  ☐ "}
          {item.status === "in_progress" ? <Text bold>{item.text}</Text> : item.text}
        </Text>
      ))}
    </Box>
  );
}

function todoLines(list: TaskListSnapshot): Array<{ text: string; status: string }> {
  return list.items.map((item) => ({
    text: item.status === "in_progress" && item.activeForm ? item.activeForm : item.content,
    status: item.status,
  }));
}

/** The session's background commands while any of them runs, each with its state. */
export function BackgroundTasksPanel({ tasks, now }: { tasks: readonly BackgroundTask[]; now: number }) {
  if (!tasks.some((t) => t.status === "running")) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text dimColor>Background tasks:</Text>
      {tasks.map((task) => {
        const seconds = Math.floor(((task.endedAt ?? now) - task.startedAt) / 1000);
        return (
          <Text key={task.id}>
            {"  "}
            <Text color={task.status === "running" ? "yellow" : task.status === "completed" ? "green" : "red"}>
              {task.status}
            </Text>{" "}
            <Text dimColor>{task.id}</Text> {task.description ?? task.command} <Text dimColor>({seconds}s)</Text>
          </Text>
        );
      })}
    </Box>
  );
}
