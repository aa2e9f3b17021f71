import type { ReactNode } from 'react';
import { SiteFooter } from '../components/layout/site-footer';
import { SiteHeader } from '../components/layout/site-header';

export function RootLayout({ children }: { children: ReactNode }) {
  return (
    <div className="app-shell">
      <SiteHeader />
      <main className="page">{children}</main>
      <SiteFooter />
    </div>
  );
}
