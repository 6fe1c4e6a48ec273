// The page shell: header with navigation, who is signed in and the virtual clock; the flash
// message of the last action; then the page.
import { raw } from 'hono/html'
import type { Child } from 'hono/jsx'
import { FAVICON_PATH } from '../http/favicon.js'
import { CopyButton, Time } from './components.js'
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
          <span id="clock" data-live="clock">
            virtual time <Time iso={view.now} tz={view.tz} />
            {view.frozen ? ' (frozen)' : ''}
          </span>
          <span>{view.scope.admin ? 'admin' : view.scope.principal.company.name}</span>
          <form method="post" action={`${UI_BASE}/sign-out`} class="inline">
            <button type="submit">Sign out</button>
          </form>
        </div>
      </header>
      <main>
        {flash && (
          <div class={`flash ${flash.kind}`} role={flash.kind === 'error' ? 'alert' : 'status'}>
            <p>{flash.text}</p>
            {flash.lines && (
              <ul class="lines">
                {flash.lines.map((line) => (
                  <li>{line}</li>
                ))}
              </ul>
            )}
            {flash.reveal?.map(([label, value]) => (
              <div class="id">
                <span class="muted">{label}</span> <code>{value}</code> <CopyButton text={value} />
              </div>
            ))}
          </div>
        )}
        <h1>{title}</h1>
        {children}
      </main>
    </Document>
  )
}
