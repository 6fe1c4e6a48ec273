// A scenario file uploaded to the dashboard, checked as `pix-sandbox scenario check` checks it
// (each problem with its path and line) before the control plane is asked to apply it: the
// control plane takes a document, whose problems it can name by path but not by line.
import { readScenarioText, ScenarioError } from '../scenarios/loader.js'

/** Problems listed at most: a file of thousands of mistakes needs its first ones fixed first. */
const SHOWN = 20

/** The document to apply, or the problems to show, each as the linter prints it (`file: path (line N): problem`). */
export function lintScenario(
  text: string,
  file: string,
): { document: Record<string, unknown> } | { problems: string[] } {
  try {
    const { document } = readScenarioText(text, file)
    // A scenario is a mapping; an empty file is the empty scenario.
    return { document: (document ?? {}) as Record<string, unknown> }
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err
    const problems = err.problems.map((p) => `${file}: ${p}`)
    return {
      problems:
        problems.length > SHOWN
          ? [...problems.slice(0, SHOWN), `and ${problems.length - SHOWN} more`]
          : problems,
    }
  }
}
