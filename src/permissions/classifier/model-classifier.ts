// An auto-mode classifier that asks a model, through any Provider, whether one tool call should be
// blocked. It sees only the call itself. Anything but a clear "no" blocks.
import type { Provider } from "../../providers/types.js";
import type { AutoModeClassifier, ClassifierRequest, ClassifierVerdict } from "./classifier-step.js";

const SYSTEM_PROMPT = `You review one action that an autonomous coding agent wants to take on a developer's machine.
Block it if it could destroy or leak data, reach outside the project without clear need, change
credentials, system or shell configuration, install or run untrusted code, or push, publish or
deploy anything. Allow ordinary project work: reading, building, testing, editing project files.
Err on the side of blocking.
Answer with <block>yes</block> or <block>no</block>, then one short sentence in <reason></reason>.`;

export interface ModelClassifierOptions {
  provider: Provider;
  /** Model name without the provider prefix. */
  model: string;
  maxTokens?: number;
}

export function createModelClassifier(options: ModelClassifierOptions): AutoModeClassifier {
  return {
    name: `model:${options.provider.name}:${options.model}`,
    async classify(request: ClassifierRequest, signal: AbortSignal): Promise<ClassifierVerdict> {
      let text = "";
      const stream = options.provider.stream({
        model: options.model,
        system: SYSTEM_PROMPT,
        messages: [
          {
            role: "user",
            content: [{ type: "text", text: `<action tool="${request.toolName}">\n${request.action}\n</action>` }],
          },
        ],
        tools: [],
        maxTokens: options.maxTokens ?? 256,
        signal,
        temperature: 0,
      });
      let blocksText = "";
      for await (const event of stream) {
        if (event.type === "text_delta") text += event.text;
        if (event.type === "block" && event.block.type === "text") blocksText += event.block.text;
      }
      return parseVerdict(blocksText || text);
    },
  };
}

export function parseVerdict(text: string): ClassifierVerdict {
  const answer = /<block>\s*(yes|no)\s*<\/block>/i.exec(text)?.[1]?.toLowerCase();
  const reason = /<reason>([\s\S]*?)<\/reason>/i.exec(text)?.[1]?.trim();
  if (answer === "no") return { block: false, reason: reason || "the classifier found no risk" };
  if (answer === "yes") return { block: true, reason: reason || "the classifier judged it risky" };
  return { block: true, reason: "the classifier gave no clear answer" };
}

/**
 * A classifier whose model is set up on first use, so a session that never reaches an auto-mode
 * ask never loads a provider for it. A failed set-up is retried on the next ask (each failure makes
 * that ask fall back to a person).
 */
export function createLazyClassifier(name: string, load: () => Promise<AutoModeClassifier>): AutoModeClassifier {
  let loading: Promise<AutoModeClassifier> | undefined;
  return {
    name,
    async classify(request, signal) {
      loading ??= load().catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
      return (await loading).classify(request, signal);
    },
  };
}
