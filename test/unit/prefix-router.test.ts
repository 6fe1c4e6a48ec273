// The app's router: the contract's paths on Hono's RegExpRouter, everything else still served.
import { describe, expect, it } from 'vitest'
import { mayMatchUnder, PrefixRouter } from '../../src/http/prefix-router.js'

describe('mayMatchUnder', () => {
  it.each([
    ['/*', true],
    ['*', true],
    ['/api/v1/user/company', true],
    ['/api/:version/x', true],
    ['/api/*', true],
    ['/api', false],
    ['/_sandbox/charges', false],
    ['/api/v2/user/company', false],
  ])('%s under /api/v1: %s', (path, expected) =>
    expect(mayMatchUnder(path, '/api/v1')).toBe(expected),
  )
})

const handlers = (result: ReturnType<PrefixRouter<string>['match']>) => result[0].map(([h]) => h)

describe('PrefixRouter', () => {
  const build = () => {
    const r = new PrefixRouter<string>('/api/v1')
    r.add('ALL', '/*', 'journal')
    r.add('POST', '/api/v1/hub/transactions/in', 'charge')
    r.add('GET', '/api/v1/user/company', 'company')
    // The pair that makes the RegExpRouter refuse a route table.
    r.add('POST', '/_sandbox/webhooks/deliveries/:delivery_id/retry', 'retry')
    r.add('POST', '/_sandbox/webhooks/:webhook_id/test', 'test')
    return r
  }

  it('serves the contract from the RegExpRouter, with the middleware first', () => {
    const r = build()
    expect(handlers(r.match('POST', '/api/v1/hub/transactions/in'))).toEqual(['journal', 'charge'])
    expect(handlers(r.match('GET', '/api/v1/hub/transactions/in'))).toEqual(['journal'])
    expect(r.names[0]).toBe('SmartRouter + RegExpRouter')
  })

  it('still serves every other route, including the pair the RegExpRouter refuses', () => {
    const r = build()
    const retry = r.match('POST', '/_sandbox/webhooks/deliveries/d1/retry')
    expect(handlers(retry)).toEqual(['journal', 'retry'])
    expect(handlers(r.match('POST', '/_sandbox/webhooks/w1/test'))).toEqual(['journal', 'test'])
    expect(r.names[1]).toBe('SmartRouter + TrieRouter')
  })
})

describe('PrefixRouter, with the middleware kept out of the prefix', () => {
  const build = () => {
    const r = new PrefixRouter<string>('/api/v1', (h) => h === 'journal')
    for (const [method, path, h] of [
      ['ALL', '/*', 'journal'],
      ['POST', '/api/v1/hub/transactions/in', 'charge'],
      ['GET', '/_sandbox/charges', 'list'],
    ])
      r.add(method!, path!, h!)
    return r
  }

  it('gives a contract route its handler alone', () => {
    expect(handlers(build().match('POST', '/api/v1/hub/transactions/in'))).toEqual(['charge'])
  })

  it('gives a path under the prefix that no route answers the middleware, so its 404 or 405 is journaled', () => {
    const r = build()
    expect(handlers(r.match('GET', '/api/v1/hub/transactions/in'))).toEqual(['journal'])
    expect(handlers(r.match('GET', '/api/v1/nothing'))).toEqual(['journal'])
  })

  it('keeps the middleware on every other path', () => {
    expect(handlers(build().match('GET', '/_sandbox/charges'))).toEqual(['journal', 'list'])
  })
})
