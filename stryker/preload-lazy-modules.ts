// Loaded before any test of `npm run mutation` runs (vitest.mutation.config.ts, setupFiles).
//
// Stryker's per-test coverage counts module-level code (schemas, patterns, templates) that runs
// during a test as covered by that test alone, and then tries those mutants against it only.
// create-checkout imports its requests-mode writer on demand, inside whichever test first takes an
// order request, so that test would own every module the writer is first to load (the order
// item schema, the status names, the email templates) and their mutants would "survive" it.
// Loading the writer here keeps that code static, as every statically imported module's is.
import '../lambdas/handlers/create-checkout/request-writer';
