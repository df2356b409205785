// The live part of the session's screen, between the finished transcript and the prompt: thinking
// and text as they stream, the running tools, the todo and background-task panels, and the
// "Working…" line while a prompt runs and nothing waits for the person.
import { Box, Text } from "ink";
import type { BackgroundTask } from "../../tool/shell-state.js";
import { Markdown } from "../components/Markdown.js";
import type { TranscriptModel } from "../transcript/transcript-model.js";
import { BackgroundAgentView, BackgroundTasksPanel, Marked, RunningToolView, TodoPanel } from "./TranscriptView.js";

export interface LivePartProps {
  transcript: TranscriptModel;
  /** The clock the running tools' elapsed times are read against. */
  now: number;
  /** The session's background tasks; undefined before the session has started. */
  backgroundTasks: readonly BackgroundTask[] | undefined;
  /** A prompt runs and no question for the person is open. */
  working: boolean;
  /** The running calls that wait for the person's answer to their permission question. */
  asking?: ReadonlySet<string>;
}

export function LivePart({ transcript, now, backgroundTasks, working, asking }: LivePartProps) {
  const running = [...transcript.running.values()];
  return (
    <>
      {transcript.streamingThinking ? (
        <Text dimColor italic>
          ✻ {transcript.streamingThinking.slice(-300)}
        </Text>
      ) : null}
      {transcript.streamingText ? (
        <Box marginTop={1}>
          <Marked>
            <Markdown text={transcript.streamingText} />
          </Marked>
        </Box>
      ) : null}
      {running.map((tool) => (
        <RunningToolView
          key={tool.use.id}
          tool={tool}
          now={now}
          asking={asking?.has(tool.use.id) === true}
          subagent={transcript.subagents.byCall.get(tool.use.id)}
        />
      ))}
      {transcript.subagents.runningInBackground().map(([id, progress]) => (
        <BackgroundAgentView key={id} progress={progress} now={now} />
      ))}
      {transcript.todo ? <TodoPanel list={transcript.todo} /> : null}
      {backgroundTasks ? (
        <BackgroundTasksPanel
          // An agent whose calls are shown above is not listed twice.
          tasks={backgroundTasks.filter(
            (t) => t.toolUseId === undefined || !transcript.subagents.byCall.has(t.toolUseId),
          )}
          now={now}
        />
      ) : null}
      {working ? (
        <Box marginTop={1}>
          <Text color="magenta">✻ Working… </Text>
          <Text dimColor>(esc to interrupt)</Text>
        </Box>
      ) : null}
    </>
  );
}
