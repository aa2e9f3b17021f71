import { afterAll } from 'vitest';
import { removeTempDirs } from './support';

// The infra files share one module graph per worker (isolate: false), so support.ts's own afterAll,
// registered when it first loads, ends the first file only: each file removes its folders here.
afterAll(removeTempDirs);
