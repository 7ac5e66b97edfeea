import { useState, type ChangeEvent, type FocusEvent } from 'react';
import type { FieldErrors } from '../utils/validation';

/**
 * Errors of a field show after its first blur, then follow every change (SPEC §5: validate on blur
 * and on change, not on each keystroke of a field the user has not left yet).
 */
export function useValidatedForm<F extends string>(
  initialValues: Record<F, string>,
  validate: (values: Record<F, string>) => FieldErrors<F>,
) {
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

  const handleBlur = (event: FocusEvent<HTMLInputElement>) => {
    const { name } = event.target;
    setTouched((current) => ({ ...current, [name]: true }));
  };

  const touchAll = () => {
    const all: Partial<Record<F, boolean>> = {};
    for (const field of Object.keys(values) as F[]) all[field] = true;
    setTouched(all);
  };

  return { values, errors, allErrors, handleChange, handleBlur, touchAll };
}
