import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AdminProvider } from './app/admin-provider';
import { ADMIN_PAGE, AdminRoutes } from './app/admin-routes';
import './styles/index.css';

// admin.html's entry, apart from the shop's (main.tsx): `/`'s first load carries nothing of the
// admin, not even its route (ADR 0033).
const container = document.getElementById('root');
if (!container) throw new Error('admin.html has no #root element');

const app = (
  <StrictMode>
    <AdminProvider>
      <BrowserRouter>
        <AdminRoutes />
      </BrowserRouter>
    </AdminProvider>
  </StrictMode>
);

// As main.tsx: the build's "Loading the admin…" shell is taken over, inside a transition; HTML
// written for another page is replaced.
if (container.dataset.page === ADMIN_PAGE.key) {
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  container.replaceChildren();
  createRoot(container).render(app);
}
