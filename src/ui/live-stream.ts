// GET /_sandbox/ui/live: the Server-Sent Events stream of changes, scoped like the pages.
import type { Ui } from './router.js'

const HEARTBEAT_MS = 20_000

export function mountLiveStream(ui: Ui): void {
  ui.app.get('/live', (c) => {
    const { scope } = c.get('signedIn')
    const encoder = new TextEncoder()
    let stop: (() => void) | null = null
    let heartbeat: NodeJS.Timeout | undefined
    const end = () => {
      stop?.()
      stop = null
      clearInterval(heartbeat)
    }
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const send = (text: string) => {
          try {
            controller.enqueue(encoder.encode(text))
          } catch {
            end()
          }
        }
        stop = ui.live.listen({ scope, send })
        if (!stop) {
          // Too many open dashboards: the browser retries later.
          controller.enqueue(encoder.encode('retry: 30000\nevent: full\ndata: {}\n\n'))
          controller.close()
          return
        }
        send('retry: 2000\n: connected\n\n')
        heartbeat = setInterval(() => send(': ping\n\n'), HEARTBEAT_MS)
        heartbeat.unref()
      },
      cancel: end,
    })
    return new Response(body, {
      headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' },
    })
  })
}
