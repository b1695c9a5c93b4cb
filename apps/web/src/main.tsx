import '@fontsource-variable/inter';
import './index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRoot } from './app/app-root';
import { navigateOutsideReact } from './app/route-renderer';
import { installSessionExpiryHandler } from './app/session-expiry-handler';
import { persistor, store } from './app/store';
import { installDevToolsGuard } from './lib/devtools-guard';

if (import.meta.env.PROD) installDevToolsGuard();

installSessionExpiryHandler({
  store,
  persistor,
  navigate: (to) => navigateOutsideReact(to, { replace: true }),
});

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

createRoot(container).render(
  <StrictMode>
    <AppRoot />
  </StrictMode>,
);
