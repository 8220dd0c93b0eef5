import { lazy, Suspense, useEffect, useState } from 'react';
import { BrowserRouter } from 'react-router-dom';
import type { RuntimeConfig } from '../../schema/api/runtimeConfig';
import { AuthProvider } from './auth/AuthProvider';
import { FullScreenSpinner } from './components/FullScreenSpinner';
import { ConfigContext } from './config/ConfigContext';
import { NotificationsProvider } from './notifications/NotificationsContext';
import { AppRoutes } from './routes';

const ConfigError = lazy(() => import('./components/ConfigError'));

type ConfigState = { status: 'loading' } | { status: 'ready'; config: RuntimeConfig } | { status: 'error'; message: string };

export function App({ configPromise }: { configPromise: Promise<RuntimeConfig> }) {
  const [state, setState] = useState<ConfigState>({ status: 'loading' });

  useEffect(() => {
    let active = true;
    configPromise.then(
      (config) => active && setState({ status: 'ready', config }),
      (error: unknown) => {
        console.error('Could not load /config.json', error);
        if (active) setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      active = false;
    };
  }, [configPromise]);

  if (state.status === 'loading') return <FullScreenSpinner label="Loading Trackpitch" />;
  if (state.status === 'error') {
    return (
      <Suspense fallback={null}>
        <ConfigError message={state.message} />
      </Suspense>
    );
  }
  return (
    <ConfigContext.Provider value={state.config}>
      <BrowserRouter>
        <NotificationsProvider>
          <AuthProvider config={state.config}>
            <AppRoutes />
          </AuthProvider>
        </NotificationsProvider>
      </BrowserRouter>
    </ConfigContext.Provider>
  );
}
