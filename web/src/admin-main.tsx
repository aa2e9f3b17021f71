import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { ADMIN_PAGE, AdminRoutes } from './app/admin-routes';
import { AppProvider } from './app/provider';
import './styles/index.css';

// admin.html's entry, apart from the shop's (main.tsx): `/`'s first load carries nothing of the
// admin, not even its route (ADR 0033).
const container = document.getElementById('root');
if (!container) throw new Error('admin.html has no #root element');

const app = (
  <StrictMode>
    <AppProvider>
      <BrowserRouter>
        <AdminRoutes />
      </BrowserRouter>
    </AppProvider>
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
