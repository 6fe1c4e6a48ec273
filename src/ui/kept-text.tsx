// A record's optional text on its page, as the record keeps it: nothing where it is null (never
// sent), and said to be empty where a client sent "" (kept exactly as sent, docs/CONTRACT.md),
// since an empty string is not an absent one and a QA person reading the page must tell them apart.

/** What a page shows for a text kept empty. */
export const EMPTY_TEXT = 'empty string'

export const KeptText = ({
  label,
  value,
  class: className,
}: {
  label: string
  value: string | null
  class?: string
}) =>
  value === null ? null : (
    <>
      <dt>{label}</dt>
      <dd class={className}>{value === '' ? <span class="muted">{EMPTY_TEXT}</span> : value}</dd>
    </>
  )
