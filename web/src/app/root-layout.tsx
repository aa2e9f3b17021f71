import type { ReactNode } from 'react';
import { SiteFooter } from '../components/layout/site-footer';

export function RootLayout({ children }: { children: ReactNode }) {
  return (
    <div className="app-shell">
      <main className="page">{children}</main>
      <SiteFooter />
    </div>
  );
}
