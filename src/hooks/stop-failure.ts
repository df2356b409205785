// StopFailure's matcher values: the kind of model error a turn ended on, read from the error's
// message (the provider layer reports HTTP statuses and its own words in it).
export type StopFailureKind =
  | "rate_limit"
  | "authentication_failed"
  | "billing_error"
  | "invalid_request"
  | "server_error"
  | "max_output_tokens"
  | "unknown";

export function stopFailureKind(error: string): StopFailureKind {
  if (/\b429\b|rate.?limit/i.test(error)) return "rate_limit";
  if (/\b40[13]\b|authenticat|unauthori[sz]ed|api.?key/i.test(error)) return "authentication_failed";
  if (/\b402\b|billing|credit balance|quota/i.test(error)) return "billing_error";
  if (/max.?output.?tokens|max_tokens/i.test(error)) return "max_output_tokens";
  if (/\b5\d\d\b|overloaded|internal server|server error|unavailable/i.test(error)) return "server_error";
  if (/\b4\d\d\b|invalid|too long|bad request/i.test(error)) return "invalid_request";
  return "unknown";
}
