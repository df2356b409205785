// `token_usage` and `budget_usd`: how much of its context window and of its USD budget the session
// has used, told when a level is crossed (half, three quarters, nine tenths), once per level. The
// model can then wrap up, write down what it must not lose before a compaction, or say it will
// run out, instead of being cut off without warning.
import type { AttachmentSource } from "../../tool/types.js";

export const USAGE_LEVELS = [0.5, 0.75, 0.9] as const;

/** The highest level `share` has reached (-1 below the first). */
function levelOf(share: number): number {
  let level = -1;
  USAGE_LEVELS.forEach((threshold, index) => {
    if (share >= threshold) level = index;
  });
  return level;
}

const percent = (share: number) => `${Math.round(share * 100)}%`;
const tokens = (n: number) => Math.round(n).toLocaleString("en-US");
const dollars = (n: number) => `$${n.toFixed(2)}`;

export function tokenUsageSource(): AttachmentSource {
  let told = -1;
  return {
    kind: "token_usage",
    collect({ contextUsage }) {
      if (!contextUsage || contextUsage.compactAt <= 0) return undefined;
      const share = contextUsage.estimatedTokens / contextUsage.compactAt;
      const level = levelOf(share);
      // Below the first level again (after a compaction): the next crossing is news again.
      if (level < told) told = level;
      if (level <= told) return undefined;
      told = level;
      return [
        {
          text: `Context in use: about ${tokens(contextUsage.estimatedTokens)} of ${tokens(contextUsage.contextWindow)} tokens. At about ${tokens(contextUsage.compactAt)} (${percent(share)} of that reached) the earlier conversation will be summarised to make room: keep what must survive in files or the task list, not only in old turns.`,
        },
      ];
    },
  };
}

export function budgetUsdSource(): AttachmentSource {
  let told = -1;
  return {
    kind: "budget_usd",
    collect({ budget }) {
      if (!budget || budget.spentUsd === null || budget.maxUsd <= 0) return undefined;
      const level = levelOf(budget.spentUsd / budget.maxUsd);
      if (level <= told) return undefined;
      told = level;
      const left = Math.max(0, budget.maxUsd - budget.spentUsd);
      return [
        {
          text: `USD budget: ${dollars(budget.spentUsd)} of ${dollars(budget.maxUsd)} spent, ${dollars(left)} left. The session stops when it is spent: finish or hand over the most important work first.`,
        },
      ];
    },
  };
}
