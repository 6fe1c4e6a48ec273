// COMMAND's output reaches the terminal through exec's pipes (cli/supervisor.ts), so a tool that
// colours only a terminal would lose its colours under exec. Where exec's own stdout is a
// terminal, COMMAND is told to colour anyway (FORCE_COLOR=1, which Node, vitest, Jest, pytest and
// many others follow), unless the user already chose: FORCE_COLOR or NO_COLOR set, whatever its
// value. docs/READINESS.md#exec-any-suite-in-ci

/** What exec adds to COMMAND's environment for its colours: `{ FORCE_COLOR: '1' }` or nothing. */
export function colourEnv(
  env: NodeJS.ProcessEnv,
  stdoutIsTerminal: boolean,
): { FORCE_COLOR?: '1' } {
  if (!stdoutIsTerminal || 'FORCE_COLOR' in env || 'NO_COLOR' in env) return {}
  return { FORCE_COLOR: '1' }
}
