import type { ReactNode } from 'react';

export function RootLayout({ children }: { children: ReactNode }) {
  return (
    <div className="app-shell">
      <main className="page">{children}</main>
    </div>
  );
}
