/// <reference types="vite/client" />

// The build-time settings of the web app (docs/architecture.md), read once in config.ts.
interface ImportMetaEnv {
  readonly VITE_API_ORIGIN?: string;
  readonly VITE_PUBLIC_KEY?: string;
  readonly VITE_DISPATCH_CUTOFF_HOURS?: string;
}

// The seller's details (web/src/features/policies/seller.ts); unset, the local shop's are used.
interface ImportMetaEnv {
  readonly VITE_SHOP_NAME?: string;
  readonly VITE_SELLER_NAME?: string;
  readonly VITE_SELLER_ADDRESS?: string;
  readonly VITE_SELLER_EMAIL?: string;
  readonly VITE_SELLER_PHONE?: string;
  readonly VITE_SELLER_COMPANY_NUMBER?: string;
  readonly VITE_SELLER_VAT_NUMBER?: string;
}

// Put in by vite.config.ts for a browser build: the settings and seller as checked at build time.
declare const __WEB_SETTINGS__: import('./config-check').WebSettings | undefined;
declare const __SHOP_SELLER__: import('./features/policies/seller-check').Seller | undefined;
