// Environment assignments in front of a command (`NODE_ENV=test npm test`). A short list of
// variables that only tune output or build targets may be stripped before rules are matched;
// anything that can change which program runs, what it loads or where it writes may not.

const SAFE_ENV_VARS = new Set([
  "NODE_ENV",
  "NODE_NO_WARNINGS",
  "RUST_BACKTRACE",
  "RUST_LOG",
  "CARGO_TERM_COLOR",
  "CARGO_INCREMENTAL",
  "GOOS",
  "GOARCH",
  "GOARM",
  "CGO_ENABLED",
  "GO111MODULE",
  "GOEXPERIMENT",
  "PYTHONUNBUFFERED",
  "PYTHONDONTWRITEBYTECODE",
  "PYTHONIOENCODING",
  "PYTHONHASHSEED",
  "PYTEST_DISABLE_PLUGIN_AUTOLOAD",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "LC_MESSAGES",
  "LC_COLLATE",
  "LC_NUMERIC",
  "LC_TIME",
  "TZ",
  "TERM",
  "COLORTERM",
  "NO_COLOR",
  "FORCE_COLOR",
  "CLICOLOR",
  "CLICOLOR_FORCE",
  "COLUMNS",
  "LINES",
  "CI",
  "DEBUG",
  "VERBOSE",
]);

/**
 * Never stripped, never "harmless": each one redirects what runs (PATH, loader and interpreter
 * search paths, shell start-up files, git's config and helpers, pagers and editors that the
 * program will spawn).
 */
const DANGEROUS_ENV_PATTERNS: readonly RegExp[] = [
  /^PATH$/,
  /^LD_/,
  /^DYLD_/,
  /^PYTHON(PATH|HOME|STARTUP|INSPECT|BREAKPOINT)$/,
  /^NODE_(PATH|OPTIONS|EXTRA_CA_CERTS|REPL_EXTERNAL_MODULE)$/,
  /^CLASSPATH$/,
  /^JAVA_TOOL_OPTIONS$/,
  /^_JAVA_OPTIONS$/,
  /^RUBY(LIB|OPT)$/,
  /^PERL5?(LIB|OPT)$/,
  /^PERL5DB$/,
  /^GOFLAGS$/,
  /^RUSTFLAGS$/,
  /^RUSTC_WRAPPER$/,
  /^CARGO_BUILD_RUSTC/,
  /^HOME$/,
  /^TMPDIR$/,
  /^SHELL$/,
  /^BASH_ENV$/,
  /^ENV$/,
  /^BASH_FUNC_/,
  /^SHELLOPTS$/,
  /^BASHOPTS$/,
  /^PS4$/,
  /^PROMPT_COMMAND$/,
  /^IFS$/,
  /^CDPATH$/,
  /^GIT_/,
  /^PAGER$/,
  /^.*PAGER$/,
  /^EDITOR$/,
  /^VISUAL$/,
  /^LESS/,
  /^BROWSER$/,
  /^SSH_ASKPASS/,
  /^SUDO_ASKPASS$/,
  /^ZDOTDIR$/,
  /^NPM_CONFIG_/i,
  /^PIP_/,
  /^MAKEFLAGS$/,
  /^MFLAGS$/,
];

export function isSafeEnvVar(name: string): boolean {
  return SAFE_ENV_VARS.has(name) && !isDangerousEnvVar(name);
}

export function isDangerousEnvVar(name: string): boolean {
  return DANGEROUS_ENV_PATTERNS.some((pattern) => pattern.test(name));
}
