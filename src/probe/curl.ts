// Renders a check's request as a curl command, so a user can re-send it by hand. Credentials
// appear as shell variables, never as values.
import { UNKNOWN_CLIENT, WRONG_SECRET } from './http.js'
import type { ProbeRequest } from './types.js'

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
const LONG_BODY = 300

export function curlFor(req: ProbeRequest): string {
  const parts = ['curl -i']
  if (req.method === 'HEAD') parts.push('-I')
  else if (req.method !== 'GET' || req.body !== undefined) parts.push(`-X ${req.method}`)
  parts.push(req.absolute ? quote(req.path) : `"$PIX_BASE_URL${req.path}"`)
  switch (req.auth.kind) {
    case 'client': {
      const token = `$(printf %s "$PIX_CLIENT_ID:$PIX_CLIENT_SECRET" | base64${req.auth.variant === 'unpadded' ? " | tr -d '='" : ''})`
      parts.push(
        req.auth.variant
          ? `-H "authorization: ${req.auth.variant === 'lowercase-scheme' ? 'basic' : 'Basic'} ${token}"`
          : '-u "$PIX_CLIENT_ID:$PIX_CLIENT_SECRET"',
      )
      break
    }
    case 'wrong-secret':
      parts.push(`-u "$PIX_CLIENT_ID:${WRONG_SECRET}"`)
      break
    case 'unknown-client':
      parts.push(`-u ${quote(`${UNKNOWN_CLIENT}:${WRONG_SECRET}`)}`)
      break
    case 'header':
      parts.push(`-H ${quote(`authorization: ${req.auth.value}`)}`)
      break
  }
  if (req.contentType) parts.push(`-H ${quote(`content-type: ${req.contentType}`)}`)
  // curl gives --data a form type unless told to send none.
  else if (req.body !== undefined) parts.push("-H 'content-type:'")
  if (req.body !== undefined) {
    parts.push(
      req.body.length > LONG_BODY
        ? `--data-binary @body.json  # ${req.body.length} bytes: ${req.body.slice(0, 40)}...`
        : `--data-raw ${quote(req.body)}`,
    )
  }
  return parts.join(' ')
}
