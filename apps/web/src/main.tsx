import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { detectBrowserLocale } from './lib/i18n/detect-locale';
import { loadMessages } from './lib/i18n/load-messages';
import './styles/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

// Fetch the active language before the first paint so keys or English never flash.
void loadMessages(detectBrowserLocale())
  .catch((error: unknown) => console.error('Could not load translations', error))
  .finally(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
