// The providers' public surface. Adapters load their SDK only when they make their first request,
// so importing this costs no SDK.
export { type AnthropicProviderOptions, createAnthropicProvider } from "./anthropic.js";
export { isPromptTooLongMessage } from "./errors.js";
export { httpFetch } from "./http-fetch.js";
export { createOpenAIProvider, type OpenAIProviderOptions } from "./openai.js";
export { modelSpecForms, type ResolvedProvider, type ResolveOptions, resolveProvider } from "./resolve.js";
export { backoffDelayMs, type RetryInfo, type RetryOptions, withRetry } from "./retry.js";
