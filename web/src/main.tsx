import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { prerenderedPageAt } from './app/pages';
import './styles/index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

// The build wrote this page's HTML (data-page names it): take it over rather than draw it again.
// HTML written for another page (a server that answers every path with index.html) is replaced.
if (container.dataset.page !== undefined && container.dataset.page === prerenderedPageAt(window.location)) {
  // As a transition, hydration yields to the browser every few milliseconds instead of holding
  // the main thread for the whole page: the page answers input sooner (Total Blocking Time).
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  container.replaceChildren();
  createRoot(container).render(app);
}
