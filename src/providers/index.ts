// The providers' public surface. Adapters load their SDK only when they make their first request,
// so importing this costs no SDK.
export { createAnthropicProvider, type AnthropicProviderOptions } from "./anthropic.js";
export { createOpenAIProvider, type OpenAIProviderOptions } from "./openai.js";
export { withRetry, backoffDelayMs, type RetryOptions, type RetryInfo } from "./retry.js";
export { resolveProvider, modelSpecForms, type ResolvedProvider, type ResolveOptions } from "./resolve.js";
export { httpFetch } from "./http-fetch.js";
export { isPromptTooLongMessage } from "./errors.js";
