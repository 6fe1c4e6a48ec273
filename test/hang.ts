// How long a test waits before it calls a wait a hang. Not a measure of speed: on a machine
// shared with other CPU-heavy jobs (a load average of 8-11 on two cores), starting a process
// from the sources took ten times as long as on an idle one, and a test that waited for a time
// enough when idle failed there. A test waits for the event it needs; this only bounds a wait
// for an event that never comes.
export const HANG_MS = 180_000
