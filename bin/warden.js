#!/usr/bin/env node
// Thin launcher: the bundled CLI lives in dist/ (built by `npm run build`, and by `prepare` on install).
import "../dist/cli.js";
