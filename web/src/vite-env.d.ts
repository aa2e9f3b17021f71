/// <reference types="vite/client" />

// The build-time settings of the web app (docs/architecture.md), read once in config.ts.
interface ImportMetaEnv {
  readonly VITE_API_ORIGIN?: string;
  readonly VITE_PUBLIC_KEY?: string;
  readonly VITE_DISPATCH_CUTOFF_HOURS?: string;
}
