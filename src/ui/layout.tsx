// The page shell: header with navigation, who is signed in and the virtual clock; the flash
// message of the last action; then the page.
import { raw } from 'hono/html'
import type { Child } from 'hono/jsx'
import { FAVICON_PATH } from '../http/favicon.js'
import { FlashMessage, Time } from './components.js'
import type { View } from './view.js'
import { UI_BASE } from './session.js'

const NAV: [string, string][] = [
  ['', 'Overview'],
  ['/readiness', 'Readiness'],
  ['/charges', 'Charges'],
  ['/transfers', 'Transfers'],
  ['/webhooks', 'Webhooks'],
  ['/requests', 'Requests'],
  ['/events', 'Events'],
  ['/faults', 'Faults'],
]

export function Document({
  title,
  children,
  stream,
}: {
  title: string
  children: Child
  stream?: boolean
}) {
  return (
    <>
      {raw('<!doctype html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light dark" />
          <title>{`${title} · pix-sandbox`}</title>
          <link rel="icon" type="image/svg+xml" href={FAVICON_PATH} />
          <link rel="stylesheet" href={`${UI_BASE}/assets/ui.css`} />
          <script src={`${UI_BASE}/assets/ui.js`} defer></script>
        </head>
        <body data-stream={stream ? `${UI_BASE}/live` : undefined}>{children}</body>
      </html>
    </>
  )
}

export function Page({
  view,
  title,
  section,
  children,
}: {
  view: View
  title: string
  section: string
  children: Child
}) {
  const flash = view.flash
  const who = view.scope.admin
    ? 'admin'
    : `${view.scope.principal.company.name} (${view.scope.principal.clientId})`
  return (
    <Document title={title} stream>
      <header>
        <a class="brand" href={UI_BASE}>
          pix-sandbox
        </a>
        <nav aria-label="Sections">
          {NAV.map(([path, label]) => (
            <a href={`${UI_BASE}${path}`} aria-current={path === section ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <div class="who">
          <span id="clock" data-live="clock" title="Virtual time">
            <span class="label">virtual time </span>
            <Time iso={view.now} tz={view.tz} />
            {view.frozen ? ' (frozen)' : ''}
          </span>
          <span class="name" title={who}>
            {who}
          </span>
          <form method="post" action={`${UI_BASE}/sign-out`} class="inline">
            <button type="submit">Sign out</button>
          </form>
        </div>
      </header>
      <main>
        {/* A form that showed the message (FormFlash) took it: it is not shown twice. */}
        {flash && !view.flashShown && <FlashMessage flash={flash} />}
        <h1>{title}</h1>
        {children}
      </main>
    </Document>
  )
}
