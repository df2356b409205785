// Documentation sites WebFetch may read without asking. Chosen because they publish reference
// documentation written by the projects themselves, serve it over HTTPS, and take no content from
// strangers (no forums, no repositories, no paste sites: a page anyone can write is a page anyone
// can plant instructions in). Exact host names: a subdomain is not covered. Settings replace the
// list: `"webFetch": { "preapprovedHosts": ["docs.python.org"] }`, `[]` to ask for every host.
// Deny and ask rules (`WebFetch(domain:...)`) still apply to these hosts, and so does the
// private-address check.
export const DEFAULT_PREAPPROVED_HOSTS: readonly string[] = [
  // Languages and runtimes
  "docs.python.org",
  "nodejs.org",
  "www.typescriptlang.org",
  "doc.rust-lang.org",
  "docs.rs",
  "go.dev",
  "pkg.go.dev",
  "docs.oracle.com",
  "kotlinlang.org",
  "docs.swift.org",
  "www.php.net",
  "docs.ruby-lang.org",
  "learn.microsoft.com",
  "en.cppreference.com",
  "developer.mozilla.org",
  // Package managers and tools
  "docs.npmjs.com",
  "pip.pypa.io",
  "packaging.python.org",
  "git-scm.com",
  "docs.docker.com",
  "kubernetes.io",
  "docs.github.com",
  "vitest.dev",
  "jestjs.io",
  "eslint.org",
  "biomejs.dev",
  "vite.dev",
  "esbuild.github.io",
  "webpack.js.org",
  // Frameworks and libraries
  "react.dev",
  "vuejs.org",
  "angular.dev",
  "svelte.dev",
  "nextjs.org",
  "expressjs.com",
  "docs.djangoproject.com",
  "flask.palletsprojects.com",
  "fastapi.tiangolo.com",
  "docs.pytest.org",
  "numpy.org",
  "pandas.pydata.org",
  "docs.scipy.org",
  "pytorch.org",
  "tailwindcss.com",
  "zod.dev",
  // Databases
  "www.postgresql.org",
  "dev.mysql.com",
  "www.sqlite.org",
  "redis.io",
  // Model providers' documentation
  "docs.anthropic.com",
  "docs.claude.com",
  "modelcontextprotocol.io",
  "platform.openai.com",
];
