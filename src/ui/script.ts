// The dashboard's only script, a few lines of plain JS served at /_sandbox/ui/assets/ui.js:
// copy buttons, magic values filling a form's fields, expiry countdowns in virtual time, and the live stream, which re-renders the
// page's live regions (elements with data-live="<topics>") when one of their topics changes.
// Nothing polls: webhook attempts arrive on the stream too (topic delivery).
export const JS = `
(() => {
  const copy = async (text) => {
    try { await navigator.clipboard.writeText(text) } catch {
      const t = document.createElement('textarea'); t.value = text; document.body.append(t); t.select(); document.execCommand('copy'); t.remove()
    }
  }
  document.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-copy]')
    if (!b) return
    copy(b.dataset.copy).then(() => { const was = b.textContent; b.textContent = 'Copied'; setTimeout(() => (b.textContent = was), 1200) })
  })

  // A magic value chosen fills the fields it names (the server does the same for fields left blank).
  document.addEventListener('change', (e) => {
    const s = e.target.closest && e.target.closest('select[data-preset]')
    if (!s || !s.value) return
    for (const [name, value] of new URLSearchParams(s.value)) {
      const field = s.form.elements.namedItem(name)
      if (field) field.value = name === 'amount' ? (Number(value) / 100).toFixed(2).replace('.', ',') : value
    }
  })

  const loadedAt = Date.now()
  const two = (n) => String(n).padStart(2, '0')
  const tick = () => {
    for (const el of document.querySelectorAll('[data-expires]')) {
      const frozen = el.dataset.frozen === 'true'
      const now = Number(el.dataset.now) + (frozen ? 0 : (Date.now() - Number(el.dataset.rendered || loadedAt)))
      const left = Math.floor((Number(el.dataset.expires) - now) / 1000)
      if (left <= 0) { el.textContent = 'expiring now'; continue }
      const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60
      el.textContent = 'expires in ' + (h ? h + ':' + two(m) : m) + ':' + two(s) + (frozen ? ' (clock frozen)' : '')
    }
  }
  const stamp = (root) => root.querySelectorAll('[data-expires]').forEach((el) => (el.dataset.rendered = Date.now()))
  stamp(document); tick(); setInterval(tick, 1000)

  window.liveLog = []
  const regions = () => [...document.querySelectorAll('[data-live]')]
  if (!regions().length || !window.EventSource) return
  let busy = false, again = false
  const refresh = async () => {
    if (busy) { again = true; return }
    busy = true
    try {
      const res = await fetch(location.href, { headers: { 'x-ui-live': '1' }, credentials: 'same-origin' })
      if (res.redirected || !res.ok) return location.reload()
      const doc = new DOMParser().parseFromString(await res.text(), 'text/html')
      for (const el of regions()) {
        const next = doc.getElementById(el.id)
        if (!next) continue
        const before = new Set([...el.querySelectorAll('tr[data-id]')].map((r) => r.dataset.id))
        // What the reader opened (an attempt's headers, a body) stays open across the refresh.
        const open = new Set([...el.querySelectorAll('details[open][data-key]')].map((d) => d.dataset.key))
        el.replaceWith(next)
        next.querySelectorAll('tr[data-id]').forEach((r) => { if (before.size && !before.has(r.dataset.id)) r.classList.add('fresh') })
        next.querySelectorAll('details[data-key]').forEach((d) => { if (open.has(d.dataset.key)) d.open = true })
        stamp(next)
      }
      tick()
      document.dispatchEvent(new CustomEvent('live-refreshed'))
    } finally {
      busy = false
      if (again) { again = false; refresh() }
    }
  }
  const source = new EventSource(document.body.dataset.stream)
  source.addEventListener('change', (e) => {
    const change = JSON.parse(e.data)
    window.liveLog.push(change)
    // A region of one record (data-ids) refreshes for its own ids, or when ids were left out.
    const wants = (el) => el.dataset.live.split(' ').some((t) => change.topics.includes(t) &&
      (!el.dataset.ids || t === 'clock' || change.partial || el.dataset.ids.split(' ').some((id) => change.ids.includes(id))))
    const wanted = regions().some(wants)
    if (wanted) refresh()
  })
  source.addEventListener('open', () => document.body.setAttribute('data-live-open', 'true'))
})()
`
