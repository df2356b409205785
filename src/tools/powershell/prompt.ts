// The model-facing text of the PowerShell tool.
export const POWERSHELL_PROMPT = `Runs a PowerShell script with PowerShell 7 (\`pwsh -NoProfile -NonInteractive\`) in the session's working directory and returns its output (stdout, then stderr) and exit code. Each call starts a fresh pwsh process: variables and the current location do not carry over.

- Prefer the dedicated tools for files (Read, Glob, Grep, Edit, Write); use this for what PowerShell does best (cmdlets, objects in pipelines, Windows-style scripts).
- Quote paths with spaces. Cmdlets that only read (Get-ChildItem, Get-Content, Select-String, Where-Object with a script block...) run without asking inside the working directories; scripts that write, start processes, call .NET methods, use Invoke-Expression or reach the network are shown to the user first.
- Use timeout (milliseconds, up to 600000; default 120000) for long scripts.`;
