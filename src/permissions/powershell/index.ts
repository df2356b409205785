// The permission engine's say on PowerShell scripts (the PowerShell tool): deny and ask rules on
// every command the script runs, the file tools' path rules, safety findings, read-only commands
// allowed. Heavy (the grammar): the tool imports ./check.js on its first call.
export { checkPowerShellPermission, type PowerShellPermissionRequest } from "./check.js";
export { decidePowerShellPermission } from "./decide.js";
export { POWERSHELL_TOOL_NAME } from "./rules.js";
