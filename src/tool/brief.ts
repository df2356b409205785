// Messages the model sends the user while it works (SendUserMessage, src/tools/brief/): they wait
// on the session's brief channel (./session-channels.ts) until the loop turns each into a `brief`
// event after the turn's tool results, which the CLI prints as a stream-json line and a UI shows
// as it arrives.

export type BriefStatus = "normal" | "proactive";

export interface BriefMessage {
  /** Markdown for the user. */
  message: string;
  /** Absolute paths of files to show beside it. */
  attachments: string[];
  /** `proactive`: an update the user did not ask for (progress, a finding); `normal`: a reply. */
  status: BriefStatus;
  /** ISO time it was sent. */
  sentAt: string;
}
