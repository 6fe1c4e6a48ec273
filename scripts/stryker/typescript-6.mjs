// Loaded with `node --import` by `npm run test:mutation` (Stryker's process and its checkers).
// Stryker 9 (its core reads tsconfig.json, its checker compiles) needs TypeScript's JavaScript
// compiler API, which TypeScript 7, this project's compiler, no longer ships; Stryker 10 speaks
// TypeScript 7 but needs Node 22. Until the machines run Node 22, Stryker alone gets TypeScript 6,
// installed by `pretest:mutation` outside the lockfile, so that its `tsc` never replaces the
// project's. See docs/decisions/2026-11-23-mutation-testing.md.
import { register } from 'node:module'

register('./typescript-6-hooks.mjs', import.meta.url)
