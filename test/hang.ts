// How long a test waits before it calls a wait a hang. Not a measure of speed: on a machine
// shared with other CPU-heavy jobs, starting the CLI from the sources took 1-2 s idle, and 60-110 s
// at a load average of 47 on two cores, where three of them in a row passed 180 s. A test waits
// for the event it needs; this only bounds a wait for an event that never comes.
export const HANG_MS = 600_000
