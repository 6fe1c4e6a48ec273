// Where each setting of this start came from (a flag of the CLI, a variable, or the default),
// for the banner. The CLI turns its flags into the variables they mirror before main.ts reads
// them, so it says here which ones a flag gave; main.ts would otherwise name the variable.

/** Variable -> the flag that gave it, for this process's start. */
const flags = new Map<string, string>()

export function givenByFlags(given: Record<string, string>): void {
  for (const [variable, flag] of Object.entries(given)) flags.set(variable, flag)
}

/** `--port`, `PORT` or `default`: where `variable`'s value came from. */
export function sourceOf(
  variable: string,
  env: Record<string, string | undefined> = process.env,
): string {
  return flags.get(variable) ?? (env[variable] ? variable : 'default')
}
