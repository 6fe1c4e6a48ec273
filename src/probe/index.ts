// What the pix-sandbox CLI mounts: `program.addCommand(probeCommand(async (o) => { process.exitCode = await runProbe(o) }))`.
export { probeCommand, parseProbeArgs, type ProbeOptions } from './options.js'
export { runProbe, type ProbeIO } from './run.js'
export type { ExitCode } from './types.js'
