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

export interface DialogOptions {
  /**
   * The demo mirror a visitor acted on ("Register to customize"): the sign-up or login that
   * follows claims it first and lands on its page (issue 31, item 1).
   */
  demoId?: string;
}

export interface DialogsContextValue {
  open: DialogName | null;
  /** The demo of the dialog opened with one; kept while login and register switch. */
  demoId: string | null;
  openDialog: (name: DialogName, options?: DialogOptions) => void;
  closeDialog: () => void;
}

const DialogsContext = createContext<DialogsContextValue | null>(null);

/** Login, register and DNS setup are mutually exclusive: one state holds the open one. */
export function DialogsProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<DialogName | null>(null);
  const [demoId, setDemoId] = useState<string | null>(null);
  const opener = useRef<HTMLElement | null>(null);

  // The open dialog as of the last call (state updates land later): is this one opened afresh?
  const current = useRef<DialogName | null>(null);

  const openDialog = useCallback((name: DialogName, options?: DialogOptions) => {
    if (current.current === null) {
      // Remember who opened the first dialog; switching login ⇄ register keeps it.
      if (document.activeElement instanceof HTMLElement) opener.current = document.activeElement;
      setDemoId(options?.demoId ?? null);
    } else if (options?.demoId) setDemoId(options.demoId);
    current.current = name;
    setOpen(name);
  }, []);

  const closeDialog = useCallback(() => {
    current.current = null;
    setOpen(null);
    setDemoId(null);
  }, []);

  useEffect(() => {
    if (open !== null) return;
    const element = opener.current;
    opener.current = null;
    if (element && element.isConnected) element.focus();
  }, [open]);

  const value = useMemo(
    () => ({ open, demoId, openDialog, closeDialog }),
    [open, demoId, openDialog, closeDialog],
  );
  return <DialogsContext.Provider value={value}>{children}</DialogsContext.Provider>;
}

export function useDialogs(): DialogsContextValue {
  const value = useContext(DialogsContext);
  if (!value) throw new Error('useDialogs must be used inside <DialogsProvider>');
  return value;
}
