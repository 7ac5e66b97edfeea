import { useEffect, useRef, useState, type ChangeEvent, type FocusEvent } from 'react';
import { useI18n } from '../lib/i18n';

/** Field name → message (or i18n key) of its first failing rule; absent when the field is valid. */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

export function hasErrors<F extends string>(errors: FieldErrors<F>): boolean {
  return Object.values(errors).some(Boolean);
}

/**
 * Errors of a field show after its first blur, then follow every change (SPEC §5: validate on blur
 * and on change, not on each keystroke of a field the user has not left yet).
 */
export function useValidatedForm<F extends string>(
  initialValues: Record<F, string>,
  validate: (values: Record<F, string>) => FieldErrors<F>,
) {
  const { t } = useI18n();
  const [values, setValues] = useState(initialValues);
  const [touched, setTouched] = useState<Partial<Record<F, boolean>>>({});

  const allErrors = validate(values);
  const errors: FieldErrors<F> = {};
  for (const field of Object.keys(values) as F[]) {
    if (touched[field]) errors[field] = allErrors[field];
  }

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const { name, value } = event.target;
    setValues((current) => ({ ...current, [name]: value }));
  };

  // Where the pointer last went down: a blur caused by pressing a button is told apart from Tab.
  const pressed = useRef<EventTarget | null>(null);
  useEffect(() => {
    const handlePointerDown = (event: PointerEvent) => {
      pressed.current = event.target;
    };
    const handleKeyDown = () => {
      pressed.current = null;
    };
    document.addEventListener('pointerdown', handlePointerDown, true);
    document.addEventListener('keydown', handleKeyDown, true);
    return () => {
      document.removeEventListener('pointerdown', handlePointerDown, true);
      document.removeEventListener('keydown', handleKeyDown, true);
    };
  }, []);

  const handleBlur = (event: FocusEvent<HTMLInputElement>) => {
    const { name, form } = event.target;
    // Pressing a button of the same form (submit, 'Forgot your password?') lets the button decide
    // what to show: an error appearing now would push the button from under the pointer and the
    // click would be lost. Leaving the field with Tab validates as usual.
    const next = event.relatedTarget;
    const target = pressed.current;
    if (
      form &&
      next instanceof HTMLButtonElement &&
      next.form === form &&
      target instanceof Node &&
      next.contains(target)
    ) {
      return;
    }
    setTouched((current) => ({ ...current, [name]: true }));
  };

  const touch = (field: F) => setTouched((current) => ({ ...current, [field]: true }));

  const touchAll = () => {
    const all: Partial<Record<F, boolean>> = {};
    for (const field of Object.keys(values) as F[]) all[field] = true;
    setTouched(all);
  };

  /** Back to the given values with no field touched, e.g. after a successful save. */
  const reset = (next: Record<F, string>) => {
    setValues(next);
    setTouched({});
  };

  /** The props a `FormField` of this form needs: name, value, handlers and the translated error. */
  const field = (name: F) => ({
    name,
    value: values[name],
    onChange: handleChange,
    onBlur: handleBlur,
    error: errors[name] && t(errors[name]),
  });

  return {
    values,
    errors,
    allErrors,
    setValues,
    handleChange,
    handleBlur,
    touch,
    touchAll,
    reset,
    field,
  };
}
