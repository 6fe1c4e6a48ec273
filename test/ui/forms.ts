// The dashboard over plain HTTP, as a browser's forms use it: sign in (a cookie), post a form
// (same origin), and read the message the next page shows. For tests of what an action does; the
// browser tests drive the same forms in chromium.
import type { TestSandbox } from '../harness.js'

export interface Dashboard {
  cookie: string
  /** Posts a form; answers where it redirected to and the page there (its flash message included). */
  post(path: string, form: Record<string, string>): Promise<{ location: string; page: string }>
  /** Posts a multipart form (a file field). */
  upload(path: string, form: FormData): Promise<{ location: string; page: string }>
  get(path: string): Promise<string>
}

export async function signIn(
  s: TestSandbox,
  as: { token: string } | { client_id: string; client_secret: string },
): Promise<Dashboard> {
  const r = await fetch(`${s.url}/_sandbox/ui/sign-in`, {
    method: 'POST',
    body: new URLSearchParams(as),
    redirect: 'manual',
    headers: { origin: s.url },
  })
  if (r.status !== 303) throw new Error(`sign-in answered ${r.status}`)
  const cookie = r.headers.get('set-cookie')!.split(';')[0]!
  const get = async (path: string) =>
    (await fetch(`${s.url}${path}`, { headers: { cookie } })).text()
  const send = async (path: string, body: URLSearchParams | FormData) => {
    const res = await fetch(`${s.url}/_sandbox/ui${path}`, {
      method: 'POST',
      body,
      redirect: 'manual',
      headers: { cookie, origin: s.url },
    })
    if (res.status !== 303) throw new Error(`${path} answered ${res.status}: ${await res.text()}`)
    const location = res.headers.get('location')!
    return { location, page: await get(location) }
  }
  return {
    cookie,
    post: (path, form) => send(path, new URLSearchParams(form)),
    upload: (path, form) => send(path, form),
    get,
  }
}

/** The flash message of a page: its text, lines and reveals, tags stripped. */
export function flashOf(page: string): string | undefined {
  const m =
    /<div class="flash (?:ok|error)[^"]*"[^>]*>([\s\S]*?)<\/div>\s*(?:<h1|<\/section|<form)/.exec(
      page,
    )
  return m?.[1] === undefined
    ? undefined
    : textOf(m[1].replace(/<[^>]+>/g, ' '))
        .replace(/\s+/g, ' ')
        .trim()
}

/**
 * Sends a transfer with a magic value of Send a transfer, as a browser sends the form (as
 * sandbox-client, the key type left as it is): the id of the transfer made (the form goes on to
 * its page), or none, and the message the page then shows.
 */
export async function sendByMagic(
  ui: Dashboard,
  magic: string,
): Promise<{ id: string | undefined; flash: string | undefined }> {
  const { location, page } = await ui.post('/transfers/new', {
    as: 'sandbox-client',
    magic,
    pix_type: 'EMAIL',
  })
  return { id: /\/transfers\/([^/?]+)$/.exec(location)?.[1], flash: flashOf(page) }
}

/** The options of a page's `select[name]` (the first one, or the first after `after` in the page): value and text, unescaped. */
export function optionsOf(page: string, name: string, after = ''): [value: string, text: string][] {
  const from = page.slice(Math.max(0, page.indexOf(after)))
  const select =
    new RegExp(`<select name="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(from)?.[1] ?? ''
  return [...select.matchAll(/<option value="([^"]*)"[^>]*>([\s\S]*?)<\/option>/g)].map(
    ([, value, text]) => [textOf(value!), textOf(text!)],
  )
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" }

/** Text as hono/jsx escapes it in a page, unescaped. */
export const textOf = (html: string) =>
  html.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name]!)
