// GET /_sandbox/ui/live: the Server-Sent Events stream of changes, scoped like the pages.
import { setMaxListeners } from 'node:events'
import { MAX_STREAMS } from './live.js'
import type { Ui } from './router.js'

const HEARTBEAT_MS = 20_000
const FULL = 'retry: 30000\nevent: full\ndata: {}\n\n'

export function mountLiveStream(ui: Ui): void {
  // Each open stream listens for the server's close: past 10, Node would warn of a leak.
  if (ui.deps.stopping) setMaxListeners(MAX_STREAMS + 10, ui.deps.stopping)
  ui.app.get('/live', (c) => {
    const { scope, id: session } = c.get('signedIn')
    const encoder = new TextEncoder()
    let stop: (() => void) | null = null
    let heartbeat: NodeJS.Timeout | undefined
    let forget: (() => void) | undefined
    const end = () => {
      stop?.()
      stop = null
      clearInterval(heartbeat)
      forget?.()
    }
    const stopping = ui.deps.stopping
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        // The server is closing: end the stream so the connection does not hold the close up.
        const close = () => {
          end()
          try {
            controller.close()
          } catch {
            // already closed
          }
        }
        if (stopping?.aborted) return close()
        stopping?.addEventListener('abort', close, { once: true })
        forget = () => stopping?.removeEventListener('abort', close)
        const send = (text: string) => {
          try {
            controller.enqueue(encoder.encode(text))
          } catch {
            end()
          }
        }
        // Too many open dashboards (of this session, this company, or in all): the browser retries later.
        const full = () => {
          send(FULL)
          close()
        }
        stop = ui.live.listen({ scope, session, send, close: full })
        if (!stop) return full()
        send('retry: 2000\n: connected\n\n')
        heartbeat = setInterval(() => send(': ping\n\n'), HEARTBEAT_MS)
        heartbeat.unref()
      },
      cancel: end,
    })
    return new Response(body, {
      // Connection: close, so that a stream ended by a closing server frees its socket at once.
      headers: {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
        Connection: 'close',
      },
    })
  })
}
