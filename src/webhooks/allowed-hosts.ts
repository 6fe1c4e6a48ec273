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

const isLoopback = (host: string): boolean => {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '')
  return (
    h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h)
  )
}

/**
 * What the start banner says about where webhooks may go, or null when there is nothing to say:
 * listening on loopback only, nobody else can reach the webhook API. Otherwise anyone who can
 * reach the server (the default credentials are public) can make it send requests to any host,
 * this machine's own ports included, and read from `/test` which ones answer.
 */
export function webhookExposure(
  listenHost: string,
  allowed: readonly string[] | undefined,
): string | null {
  if (allowed) return `sent only to ${allowed.join(', ')} (WEBHOOK_ALLOWED_HOSTS)`
  if (isLoopback(listenHost)) return null
  return `sent to any host, this machine's own ports included, for anyone who reaches ${listenHost}: set WEBHOOK_ALLOWED_HOSTS=host[:port],... to your receivers`
}
