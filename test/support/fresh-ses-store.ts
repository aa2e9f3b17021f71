import sesStore from 'aws-ses-v2-local/dist/store.js';

// The SES stand-in keeps its mail in one store per process, and the node files share a process
// (vitest.config.ts, isolate: false): each file starts with it empty, as in a process of its own.
sesStore.clearStore();
