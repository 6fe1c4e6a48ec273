// The last line of defence: every text the probe prints or writes passes through here, so a
// secret that a hostile target echoes back (in a body, a header, an error) is never shown.

export function createScrubber(secrets: (string | undefined)[]): (text: string) => string {
  const needles = new Set<string>()
  for (const s of secrets) {
    if (!s) continue
    needles.add(s)
    needles.add(JSON.stringify(s).slice(1, -1))
    needles.add(encodeURIComponent(s))
  }
  const sorted = [...needles].filter(Boolean).sort((a, b) => b.length - a.length)
  return (text) => sorted.reduce((t, n) => t.split(n).join('[redacted]'), text)
}
