import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

export interface LoadingContextValue {
  isLoading: boolean;
  /** Shows the global overlay while the promise runs. */
  withLoading: <T>(work: Promise<T>) => Promise<T>;
}

const LoadingContext = createContext<LoadingContextValue | null>(null);

export function LoadingProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState(0);

  const withLoading = useCallback(async <T,>(work: Promise<T>): Promise<T> => {
    setPending((n) => n + 1);
    try {
      return await work;
    } finally {
      setPending((n) => n - 1);
    }
  }, []);

  const value = useMemo(() => ({ isLoading: pending > 0, withLoading }), [pending, withLoading]);
  return <LoadingContext.Provider value={value}>{children}</LoadingContext.Provider>;
}

export function useLoading(): LoadingContextValue {
  const value = useContext(LoadingContext);
  if (!value) throw new Error('useLoading must be used inside <LoadingProvider>');
  return value;
}
