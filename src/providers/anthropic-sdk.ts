// The part of the Anthropic SDK that Warden uses: the bare client and the Messages resource.
// Imported by name here and reached only through anthropic.ts's dynamic import(), so the bundler
// keeps nothing else: the SDK's default export brings every resource of the API (beta, files,
// skills, organization...), ~1.3 MB of code for the first request to wait on, against ~0.33 MB.
import { BaseAnthropic, type ClientOptions } from "@anthropic-ai/sdk/client";
import { Messages } from "@anthropic-ai/sdk/resources/messages/messages";

export interface MessagesClient {
  messages: Pick<Messages, "create">;
}

export function createMessagesClient(options: ClientOptions): MessagesClient {
  return { messages: new Messages(new BaseAnthropic(options)) };
}
