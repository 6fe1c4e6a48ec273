// The journal's redaction on its own: what a reader of GET /_sandbox/requests must never see.
import { describe, expect, it } from 'vitest'
import { createRedactor, REDACTED } from '../../src/http/redact.js'

const redact = createRedactor(['the-admin-token-value'])
const nested = (depth: number, leaf: unknown): unknown =>
  depth === 0 ? leaf : { a: nested(depth - 1, leaf) }
/** A suspicious body whose `v` holds `arrays` nested arrays, the innermost holding "leaf". */
const deepArrays = (arrays: number) =>
  `{"token":"t","v":${'['.repeat(arrays)}"leaf"${']'.repeat(arrays)}}`

describe('redaction', () => {
  it('redacts secret-looking names in query strings, percent-encoded or not', () => {
    const q = redact.query(
      '?access_token=tok-1&client_secret=cs-2&client%5Fsecret=cs-3&api-key=k-4&limit=5',
    )
    expect(q).toBe(
      `?access_token=${REDACTED}&client_secret=${REDACTED}&client%5Fsecret=${REDACTED}&api-key=${REDACTED}&limit=5`,
    )
    expect(redact.query('?limit=5&status=200')).toBe('?limit=5&status=200')
    expect(redact.query('?x=the-admin-token-value')).toBe(`?x=${REDACTED}`)
  })

  it('redacts secret-looking names in form bodies', () => {
    expect(
      redact.body(
        'grant_type=client_credentials&client_id=abc&client_secret=form-secret&password=p%40ss',
      ),
    ).toBe(
      `grant_type=client_credentials&client_id=abc&client_secret=${REDACTED}&password=${REDACTED}`,
    )
  })

  it('keeps only the scheme of an Authorization value, whatever whitespace follows it', () => {
    for (const value of [
      'Basic\tc2VjcmV0',
      'Bearer  \t the-admin-token-value',
      ' basic\u000bc2VjcmV0',
    ]) {
      expect(redact.headers({ authorization: value }).authorization).toMatch(
        new RegExp(`^\\w+ \\${REDACTED.slice(0, -1)}\\]$`),
      )
    }
    expect(redact.headers({ authorization: 'c2VjcmV0' }).authorization).toBe(REDACTED)
    expect(redact.headers({ authorization: 'Basic\tc2VjcmV0' }).authorization).toBe(
      `Basic ${REDACTED}`,
    )
  })

  it('redacts what is nested too deep to inspect instead of keeping it', () => {
    const body = JSON.stringify(nested(70, { client_secret: 'deep-secret', note: 'deep-note' }))
    const out = redact.body(body)!
    expect(out).not.toContain('deep-secret')
    expect(out).not.toContain('deep-note')
    expect(out).toContain(REDACTED)
    expect(
      redact.body(JSON.stringify(nested(10, { client_secret: 'shallow-secret', note: 'kept' }))),
    ).toContain('kept')
  })

  it('sees a secret name spelled with JSON escapes', () => {
    expect(redact.body('{"client_\\u0073ecret":"escaped-value"}')).not.toContain('escaped-value')
  })

  it('inspects exactly 64 levels: the innermost array at level 64 is kept, at level 65 it is redacted', () => {
    // The object is level 0, so `v`'s first array is level 1.
    expect(redact.body(deepArrays(64))).toBe(
      `{"token":"${REDACTED}","v":${'['.repeat(64)}"leaf"${']'.repeat(64)}}`,
    )
    expect(redact.body(deepArrays(65))).toBe(
      `{"token":"${REDACTED}","v":${'['.repeat(64)}"${REDACTED}"${']'.repeat(64)}}`,
    )
  })

  it('redacts inside arrays element by element, keeping the rest', () => {
    const body = JSON.stringify({
      token: 't',
      items: [{ client_secret: 's', id: 1 }, 'plain', [{ password: 'p' }]],
    })
    expect(JSON.parse(redact.body(body)!)).toEqual({
      token: REDACTED,
      items: [{ client_secret: REDACTED, id: 1 }, 'plain', [{ password: REDACTED }]],
    })
  })

  it('reads a pair name as a form does: `+` is a space, so `my+token` is a secret name and `to+ken` is not', () => {
    expect(redact.query('?my+token=a&to+ken=b')).toBe(`?my+token=${REDACTED}&to+ken=b`)
  })

  it('scrubs the literal secrets it was given, one or several, but never one shorter than 8 characters', () => {
    const r = createRedactor(['', 'abc', 'sevench', 'eightchr', 'zyxwvuts98'])
    // Not suspicious, so only the literal secrets are looked for; an empty or short "secret"
    // would otherwise cut ordinary text to pieces.
    expect(r.body('abc sevench eightchr')).toBe(`abc sevench ${REDACTED}`)
    expect(r.body('only zyxwvuts98 here')).toBe(`only ${REDACTED} here`)
    expect(r.query('?q=abc&r=eightchr')).toBe(`?q=abc&r=${REDACTED}`)
  })

  // Issue 27, defect 6: each of these was kept word for word.
  it.each([
    [
      'invalid JSON, a number',
      '{"amount":100,"client_secret":12345678,}',
      `{"amount":100,"client_secret":${REDACTED},}`,
    ],
    ['single quotes', "{'client_secret':'LEAK'}", `{'client_secret':'${REDACTED}'}`],
    ['a form with spaces around =', 'client_secret = LEAK', `client_secret = ${REDACTED}`],
    ['a tab between name and value', 'client_secret\tLEAK', `client_secret\t${REDACTED}`],
    [
      'YAML, the value to the end of its line',
      'amount: 1\npassword: my long pass\nnote: kept',
      `amount: 1\npassword: ${REDACTED}\nnote: kept`,
    ],
    [
      'a JavaScript object',
      '{amount: 1, apiKey: "LEAK", note: "kept"}',
      `{amount: 1, apiKey: "${REDACTED}", note: "kept"}`,
    ],
    [
      'an object or array as the value, in invalid JSON',
      '{"token":{"a":"LEAK","b":[1]},"x":[1],}',
      `{"token":${REDACTED},"x":[1],}`,
    ],
    [
      'a multipart part',
      '--b\r\nContent-Disposition: form-data; name="client_secret"\r\n\r\nLEAK\r\n--b--',
      `--b\r\nContent-Disposition: form-data; name="client_secret"\r\n\r\n${REDACTED}\r\n--b--`,
    ],
    [
      'a bracketed form name',
      'data[client_secret]=LEAK&n=1',
      `data[client_secret]=${REDACTED}&n=1`,
    ],
    [
      'an escaped name in invalid JSON',
      '{"client_\\u0073ecret":"LEAK",}',
      `{"client_\\u0073ecret":"${REDACTED}",}`,
    ],
  ])('redacts by name whatever the syntax around it: %s', (_, body, kept) => {
    expect(redact.body(body)).toBe(kept)
  })

  // Issue 27 follow-up: each of these was still kept word for word.
  it.each([
    [
      'XML elements',
      '<req><client_secret>LEAK</client_secret><password type="x">LEAK</password><note>kept</note></req>',
      `<req><client_secret>${REDACTED}</client_secret><password type="x">${REDACTED}</password><note>kept</note></req>`,
    ],
    [
      'an XML CDATA section',
      '<password><![CDATA[LE<AK]]></password>',
      `<password>${REDACTED}</password>`,
    ],
    [
      'XML around: a closing or empty tag redacts nothing after it',
      '<a><token/>kept</a><b>x</b></token>kept',
      '<a><token/>kept</a><b>x</b></token>kept',
    ],
    [
      'a name and its value on two lines',
      'client_secret\nLEAK\nnote',
      `client_secret\n${REDACTED}\nnote`,
    ],
    ['a no-break space', 'client_secret\u00a0LEAK', `client_secret\u00a0${REDACTED}`],
    ['an ideographic space', 'client_secret\u3000LEAK', `client_secret\u3000${REDACTED}`],
    [
      'a YAML literal block',
      'client_secret: |\n  LEAK\n  LEAK2\n\n  LEAK3\nnote: kept\n',
      `client_secret: ${REDACTED}\nnote: kept\n`,
    ],
    [
      'a nested YAML folded block',
      'db:\n  password: >-\n    LEAK\n    LEAK2\n  user: kept',
      `db:\n  password: ${REDACTED}\n  user: kept`,
    ],
    [
      '`=>` and `:=`',
      'client_secret => LEAK, token:=LEAK2',
      `client_secret => ${REDACTED}, token:=${REDACTED}`,
    ],
  ])('redacts by name whatever the syntax around it: %s', (_, body, kept) => {
    expect(redact.body(body)).toBe(kept)
  })

  it.each([
    ['a pair in a string', '"client_secret=LEAK"', `"client_secret=${REDACTED}"`],
    ['a YAML line in an array', '["client_secret: LEAK"]', `["client_secret: ${REDACTED}"]`],
    [
      'JSON in a string',
      '{"payload":"{\\"client_secret\\":\\"LEAK\\"}"}',
      `{"payload":"{\\"client_secret\\":\\"${REDACTED}\\"}"}`,
    ],
    [
      'a query string in a string',
      '{"note":"client_secret=LEAK&x=1"}',
      `{"note":"client_secret=${REDACTED}&x=1"}`,
    ],
    [
      'XML in a string',
      '{"xml":"<password>LEAK</password>"}',
      `{"xml":"<password>${REDACTED}</password>"}`,
    ],
  ])('redacts pairs inside the strings of JSON that parses: %s', (_, body, kept) => {
    expect(redact.body(body)).toBe(kept)
  })

  it('reads the strings of JSON that parses as prose: a secret word and a word after a space are kept', () => {
    const body = JSON.stringify({
      description: 'new token please',
      help: 'pass the password reset link\nsecret sauce',
      xml: '<token/> kept',
    })
    expect(redact.body(body)).toBe(body)
  })

  it.each([
    'private_key',
    'privateKey',
    'pwd',
    'db_pwd',
    'passphrase',
    'access_key',
    'session_id',
    'csrf_token',
    'x-auth',
    'auth',
    'pass',
    'x-pass',
    'user_pass',
  ])('treats %s as a secret name, in JSON, in forms and in headers', (name) => {
    expect(JSON.parse(redact.body(JSON.stringify({ [name]: 'LEAK', n: 1 }))!)).toEqual({
      [name]: REDACTED,
      n: 1,
    })
    expect(redact.body(`${name}=LEAK&n=1`)).toBe(`${name}=${REDACTED}&n=1`)
    expect(redact.headers({ [name]: 'LEAK' })[name]).toBe(REDACTED)
  })

  it('keeps names that only look like secret ones, and the text of values that parse', () => {
    const body = JSON.stringify({
      author: 'Ana',
      pix_key: 'ana@example.com',
      description: 'new token please',
      keyboard: 1,
      spin: 2,
      passed: true,
      compass: 'N',
      bypass: 1,
    })
    expect(redact.body(body)).toBe(body)
    expect(redact.body('author=Ana&pix_key=k&spin=2&passed=1&passenger=2')).toBe(
      'author=Ana&pix_key=k&spin=2&passed=1&passenger=2',
    )
  })

  it("redacts a password carried without a secret name: a URL's user:password@ and curl's -u", () => {
    expect(redact.body('{"url":"https://shop:s3cr3t-pw@hooks.example.com/pix"}')).toBe(
      `{"url":"https://shop:${REDACTED}@hooks.example.com/pix"}`,
    )
    expect(redact.body('run: curl -u shop-client:hunter22 http://x')).toBe(
      `run: curl -u shop-client:${REDACTED} http://x`,
    )
    expect(redact.body('curl --user=a:b1 x')).toBe(`curl --user=a:${REDACTED} x`)
    expect(redact.query('?next=http://u:p4ss@h/')).toBe(`?next=http://u:${REDACTED}@h/`)
    // An e-mail, a URL without a password, a flag that is not -u: kept.
    const kept =
      '{"pix_key":"ana@example.com","url":"https://user@host/x","args":"-uv --user-agent a:b"}'
    expect(redact.body(kept)).toBe(kept)
    // Bounded runs: a long hostile text is scanned in linear time.
    expect(redact.body(`://${'a'.repeat(64 * 1024)}:${'b'.repeat(64 * 1024)}@`)).toHaveLength(
      128 * 1024 + 5,
    )
  })

  it('scans a long body without a separator in linear time', () => {
    // Quadratic backtracking would take minutes here; the journal reads bodies up to 64 KiB.
    const body = `{"token":${'a'.repeat(64 * 1024)}`
    expect(redact.body(body)).toBe(`{"token":${REDACTED}`)
    expect(redact.body(`%${'a'.repeat(64 * 1024)}`)).toHaveLength(64 * 1024 + 1)
    expect(redact.body(`%${'"a'.repeat(32 * 1024)}`)).toHaveLength(64 * 1024 + 1)
  })

  it('keeps a cut JSON body readable: the value of a secret-looking field becomes "[redacted]"', () => {
    expect(redact.body('{"amount":1,"client_secret":"abc')).toBe(
      `{"amount":1,"client_secret":"${REDACTED}"`,
    )
  })

  it('answers null for an absent or empty body, with or without literal secrets', () => {
    const r = createRedactor(['zyxwvuts98'])
    for (const body of [null, undefined, '']) {
      expect(r.body(body)).toBeNull()
      expect(redact.body(body)).toBeNull()
    }
  })

  it('redacts credential headers by name, joins repeated headers, and keeps the others', () => {
    const out = redact.headers({
      'proxy-authorization': 'Bearer abc.def',
      cookie: 'session=abc',
      'x-api-key': 'k-1',
      'x-signature': 'v1,abc',
      'x-forwarded-for': ['10.0.0.1', '10.0.0.2'],
      'x-request-id': 'req-1',
      gone: undefined,
    })
    expect(out).toEqual({
      'proxy-authorization': `Bearer ${REDACTED}`,
      cookie: REDACTED,
      'x-api-key': REDACTED,
      'x-signature': REDACTED,
      'x-forwarded-for': '10.0.0.1, 10.0.0.2',
      'x-request-id': 'req-1',
    })
  })
})
