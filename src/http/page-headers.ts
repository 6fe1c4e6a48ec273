// The headers of every page the server renders (the dashboard, /docs): another site cannot frame
// it (clickjacking) or inject a script into it, the browser sniffs no types, sends no Referer
// elsewhere and keeps no copy of the page (docs/SECURITY.md).
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
}
