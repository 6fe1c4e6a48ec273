// The journal's redaction on its own: what a reader of GET /_sandbox/requests must never see.
import { describe, expect, it } from 'vitest'
import { createRedactor, REDACTED } from '../../src/http/redact.js'

const redact = createRedactor(['the-admin-token-value'])
const nested = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : { a: nested(depth - 1, leaf) })

describe('redaction', () => {
  it('redacts secret-looking names in query strings, percent-encoded or not', () => {
    const q = redact.query('?access_token=tok-1&client_secret=cs-2&client%5Fsecret=cs-3&api-key=k-4&limit=5')
    expect(q).toBe(`?access_token=${REDACTED}&client_secret=${REDACTED}&client%5Fsecret=${REDACTED}&api-key=${REDACTED}&limit=5`)
    expect(redact.query('?limit=5&status=200')).toBe('?limit=5&status=200')
    expect(redact.query('?x=the-admin-token-value')).toBe(`?x=${REDACTED}`)
  })

  it('redacts secret-looking names in form bodies', () => {
    expect(redact.body('grant_type=client_credentials&client_id=abc&client_secret=form-secret&password=p%40ss')).toBe(
      `grant_type=client_credentials&client_id=abc&client_secret=${REDACTED}&password=${REDACTED}`,
    )
  })

  it('keeps only the scheme of an Authorization value, whatever whitespace follows it', () => {
    for (const value of ['Basic\tc2VjcmV0', 'Bearer  \t the-admin-token-value', ' basic\u000bc2VjcmV0']) {
      expect(redact.headers({ authorization: value }).authorization).toMatch(new RegExp(`^\\w+ \\${REDACTED.slice(0, -1)}\\]$`))
    }
    expect(redact.headers({ authorization: 'c2VjcmV0' }).authorization).toBe(REDACTED)
    expect(redact.headers({ authorization: 'Basic\tc2VjcmV0' }).authorization).toBe(`Basic ${REDACTED}`)
  })

  it('redacts what is nested too deep to inspect instead of keeping it', () => {
    const body = JSON.stringify(nested(70, { client_secret: 'deep-secret', note: 'deep-note' }))
    const out = redact.body(body)!
    expect(out).not.toContain('deep-secret')
    expect(out).not.toContain('deep-note')
    expect(out).toContain(REDACTED)
    expect(redact.body(JSON.stringify(nested(10, { client_secret: 'shallow-secret', note: 'kept' })))).toContain('kept')
  })

  it('sees a secret name spelled with JSON escapes', () => {
    expect(redact.body('{"client_\\u0073ecret":"escaped-value"}')).not.toContain('escaped-value')
  })
})
