// A task given to another member of the team (TaskUpdate owner): the new owner is told through its
// mailbox, so it learns of the task at its next turn (an idle teammate wakes for it).
import { deliver } from "../../session/mailbox.js";
import { readTeamFile } from "../../session/team-files.js";
import type { TaskRecord } from "../../tool/task-list.js";
import type { TeamContext } from "../../tool/team.js";
import { newTeamMessage } from "./messages.js";

export function notifyAssignment(team: TeamContext, owner: string, task: TaskRecord): void {
  const file = readTeamFile(team.dir);
  if (!file?.members.some((member) => member.name === owner)) return;
  deliver(
    team.dir,
    owner,
    newTeamMessage(team.memberName, { type: "task_assignment", task_id: task.id, subject: task.subject }),
  );
}
