import { BrowserRouter } from 'react-router';
import { I18nProvider } from '../lib/i18n';
import { AppRoutes } from './router';

export function App() {
  return (
    <I18nProvider>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </I18nProvider>
  );
}
