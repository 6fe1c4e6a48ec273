// The claims a user doc makes only beside the test that shows it (doc-claims.test.ts): the words
// that make one, and each claim made today, with its test and what that test holds. A user doc
// is a page a user reads (README.md, docs/ but the four for the project's own developers) or a
// description in a published document (/openapi.json, /_sandbox/openapi.json).

/**
 * Words that say the sandbox reads a value other than as it was sent, or counts its length
 * otherwise than in characters (code points: docs/CONTRACT.md, test/http/bounds.test.ts). The
 * sandbox keeps and compares what a client sends exactly as sent (docs/ARCHITECTURE.md).
 */
export const NORMALISES =
  /\bcode units?\b|\bcounts? (as )?two\b|\b(counted|measured) in bytes\b|ignor\w* (the )?case|case[- ]?insensitiv\w*|regardless of (case|capitali\w+)|\bin any case\b|\btrim(med|s|ming)?\b|surrounding (spaces|whitespace)|\bnormali[sz]\w*|folded to\b|\b(lower|upper)[- ]?cased\b|\bstripped\b/gi

/**
 * Words that say what a count, a list, a rule or a promise takes in or leaves out ("expired ones
 * included", "its own endpoints left out"): the exceptions a reader builds on, and the sentence
 * a change to the code leaves behind most easily.
 */
export const SCOPES =
  /\b(not )?included\b|\bexclud(ed|es|ing)\b|\bexcept (for|that|when|where|if|in|on)\b|\bleaves? out\b|\bleft out\b|\bnot counted\b/gi

/** Words that promise no two alike ("unique within the company"): a rule the code must keep. */
export const UNIQUE = /\bunique\b/gi

/**
 * Words that bound what a count or a list takes in by age ("of the last 30 days", "whatever
 * their age"): a window the code must keep, and a sentence left behind when it changes.
 */
export const WINDOWS =
  /\b(last|past|previous|recent) [\d,]+ (seconds?|minutes?|hours?|days?|weeks?|months?)\b|\bwhatever (its|their) age\b/gi

export const CLAIM_WORDS = [NORMALISES, SCOPES, UNIQUE, WINDOWS]

export interface Claim {
  /** A text of the claim's sentence, as the doc writes it. */
  says: string
  /** The test that shows it. */
  shownBy: string
  /** A text that test holds: the test's name or the claim's example. */
  holding: string
}

export const CLAIMS: Claim[] = [
  {
    says: 'unique within the company',
    shownBy: 'test/contract/charges.test.ts',
    holding: 'gives a unique, short, human-readable qr_code_name',
  },
  {
    says: 'media types compared case-insensitively',
    shownBy: 'test/readiness/findings.test.ts',
    holding: 'Application/JSON',
  },
  {
    says: 'counts as accepting JSON, in any case',
    shownBy: 'test/readiness/findings.test.ts',
    holding: "'*/*'",
  },
  {
    says: 'the scheme word is case-insensitive',
    shownBy: 'test/contract/auth.test.ts',
    holding: 'bAsIc',
  },
  {
    says: 'folded to ASCII',
    shownBy: 'test/contract/choices.test.ts',
    holding: 'folded to ASCII',
  },
  {
    says: 'lax coercion included',
    shownBy: 'test/contract/validation-fastapi.test.ts',
    holding: 'lax coercion, as pydantic does it',
  },
  {
    // Charge and transfer ids (docs/CONTRACT.md), their keys (CONTROL-PLANE.md, RELIABILITY.md).
    says: 'never given twice by a store, resets and restarts included',
    shownBy: 'test/store/id-keys.test.ts',
    holding: 'after a reset and a restart, with the clock frozen at one instant',
  },
  {
    says: 'restarts and a frozen clock included',
    shownBy: 'test/store/id-keys.test.ts',
    holding: 'after a scenario replaces a company and a restart',
  },
  {
    says: 'a direction left out keeps its default',
    shownBy: 'test/sandbox/tenants.test.ts',
    holding: "providers: { in: { name: expect.any(String), operations: ['charge'] }, out: null }",
  },
  {
    says: 'an operation left out answers 403',
    shownBy: 'test/sandbox/tenants.test.ts',
    holding: 'takes a name, a balance, Providers and permissions',
  },
  {
    says: 'balance changes included',
    shownBy: 'test/sandbox/journal-events.test.ts',
    holding: 'with transaction_id, the events of one charge or transfer only',
  },
  {
    says: 'It leaves out its own endpoints, `/_sandbox/health`, `/docs`',
    shownBy: 'test/sandbox/journal-redaction.test.ts',
    holding: 'the journal skips health checks and the documents',
  },
  {
    says: "the clock's routes and reset included: the clock stays",
    shownBy: 'test/store/full-disk-control.test.ts',
    holding: 'refuses a clock change with 503 and leaves the clock as it was',
  },
  {
    says: 'request headers it sent, signature included',
    shownBy: 'test/ui/scope-and-pages.test.ts',
    holding: "expect(shown['webhook-signature']).toMatch(/^v1,/)",
  },
  {
    says: "the dashboard's own actions included",
    shownBy: 'test/ui/qa-session.test.ts',
    holding: 'expect(requests).toContain(`POST /_sandbox/charges/${paid}/pay`)',
  },
  {
    says: '(a `kill -9` or a crash included)',
    shownBy: 'test/store/single-server.test.ts',
    holding: 'after kill -9 the next one starts',
  },
  {
    says: '**https only**, except for loopback addresses',
    shownBy: 'test/probe/options.test.ts',
    holding: 'allows https anywhere and http only on loopback, unless --insecure',
  },
  {
    says: 'are left out of its environment',
    shownBy: 'clients/python/tests/test_start.py',
    holding: 'def test_server_settings_in_the_environment_are_not_this_sandboxs',
  },
  {
    says: "`multiprocessing`'s included",
    shownBy: 'clients/python/tests/test_interrupted.py',
    holding: '"fork from C", "multiprocessing"',
  },
  {
    says: "(a deleted company's included)",
    shownBy: 'test/readiness/scope.test.ts',
    holding: "a deleted company's included",
  },
  {
    says: 'reading the answer late) is not counted',
    shownBy: 'test/readiness/receiver-slow.test.ts',
    holding: 'answered at once while the sandbox is held up: not slow, and the wall time is shown',
  },
  {
    says: '`receiver_slow` leaves out the time the sandbox',
    shownBy: 'test/readiness/receiver-slow.test.ts',
    holding: 'answered at once while the sandbox is held up: not slow, and the wall time is shown',
  },
  {
    says: 'loopback included',
    shownBy: 'test/webhooks/delivery.test.ts',
    holding: 'delivers charge.paid signed so that the standardwebhooks package verifies it',
  },
  {
    says: 'a 2xx after that included',
    shownBy: 'test/webhooks/timeout-and-commit.test.ts',
    holding: 'rx.fallback = { status: 200, delayMs: 5_000 }',
  },
  {
    // /_sandbox/openapi.json's WebhookAttempt.headers.
    says: 'signature included (never the secret)',
    shownBy: 'test/webhooks/attempt-headers.test.ts',
    holding:
      'are the headers the receiver got (standard format), signature included and secret left out',
  },
]
