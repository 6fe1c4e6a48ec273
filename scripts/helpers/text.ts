// Text for generated files: a paragraph wrapped to a width, for JSDoc and docstrings.

/** `text`'s words in lines of at most `width` characters (a longer word has a line of its own). */
export function wrap(text: string, width: number, first = width): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const room = lines.length ? width : first
    if (line && line.length + 1 + word.length > room) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  return line ? [...lines, line] : lines
}
