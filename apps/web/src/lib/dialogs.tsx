import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';

export type DialogName = 'login' | 'register' | 'dns';

export interface DialogsContextValue {
  open: DialogName | null;
  openDialog: (name: DialogName) => void;
  closeDialog: () => void;
}

const DialogsContext = createContext<DialogsContextValue | null>(null);

/** Login, register and DNS setup are mutually exclusive: one state holds the open one. */
export function DialogsProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<DialogName | null>(null);
  const opener = useRef<HTMLElement | null>(null);

  const openDialog = useCallback((name: DialogName) => {
    setOpen((current) => {
      // Remember who opened the first dialog; switching login ⇄ register keeps it.
      if (current === null && document.activeElement instanceof HTMLElement) {
        opener.current = document.activeElement;
      }
      return name;
    });
  }, []);

  const closeDialog = useCallback(() => setOpen(null), []);

  useEffect(() => {
    if (open !== null) return;
    const element = opener.current;
    opener.current = null;
    if (element && element.isConnected) element.focus();
  }, [open]);

  const value = useMemo(() => ({ open, openDialog, closeDialog }), [open, openDialog, closeDialog]);
  return <DialogsContext.Provider value={value}>{children}</DialogsContext.Provider>;
}

export function useDialogs(): DialogsContextValue {
  const value = useContext(DialogsContext);
  if (!value) throw new Error('useDialogs must be used inside <DialogsProvider>');
  return value;
}
