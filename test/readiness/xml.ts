// A small XML 1.0 well-formedness check for the JUnit file, so that the tests need no parser
// package: elements nest and close, attributes are quoted, entities are the five predefined ones
// or character references, and no character XML cannot hold appears. Returns the problems found.
export function wellFormedXml(text: string): string[] {
  const problems: string[] = []
  if (!text.startsWith('<?xml version="1.0" encoding="UTF-8"?>'))
    problems.push('no XML declaration')
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(text))
    problems.push('a control character XML cannot hold')
  const body = text.replace(/^<\?xml[^>]*\?>/, '')
  const stack: string[] = []
  const tag =
    /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|([^<]+)|(<)/g
  for (let m = tag.exec(body); m; m = tag.exec(body)) {
    const [, closing, name, , selfClosing, chars, stray] = m
    if (stray) problems.push(`a stray < at ${m.index}`)
    else if (chars !== undefined) {
      for (const ref of chars.match(/&[^;\s]*;?/g) ?? [])
        if (!/^&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);$/.test(ref))
          problems.push(`bad entity ${ref}`)
    } else if (closing) {
      if (stack.pop() !== name) problems.push(`</${name}> closes nothing open`)
    } else if (!selfClosing) stack.push(name!)
    const attrs = m[3] ?? ''
    for (const ref of attrs.match(/&[^;\s"']*;?/g) ?? [])
      if (!/^&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);$/.test(ref))
        problems.push(`bad entity ${ref} in <${name}>`)
  }
  if (stack.length) problems.push(`unclosed: ${stack.join(', ')}`)
  return problems
}
