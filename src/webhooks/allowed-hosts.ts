// WEBHOOK_ALLOWED_HOSTS: where webhooks may go. Checked when subscribing and again before every
// send, so a subscription made before the list was set (or widened) cannot deliver elsewhere.

/** Why `url` may not receive webhooks, or null when it may (always, without a list). */
export function hostRefusal(url: string, allowed: readonly string[] | undefined): string | null {
  if (!allowed) return null
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'the URL cannot be parsed'
  }
  const host = parsed.host.toLowerCase()
  if (allowed.includes(host) || allowed.includes(parsed.hostname.toLowerCase())) return null
  return `host ${host} is not in WEBHOOK_ALLOWED_HOSTS`
}
