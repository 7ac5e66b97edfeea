import type { RenderedForm } from '../render/form-handlers.js';
import type { PageForm } from '../types.js';

/**
 * Sets `scriptSubmits` on the page's recorded forms that a script handles in its render
 * (`RenderResult.forms`, docs/engine.md, "Forms"). `sameDocument`: `forms` were read from the
 * rendered DOM itself (a page kept as rendered), so a form at the same place with the same id and
 * field names is the same form. Otherwise (a replayed page keeps the server's HTML, which its scripts
 * may have added forms to) and as a fallback, a rendered form is matched only when it is sure:
 * by its id (`id` or `name` attribute), one form each side having it; else by its action and its
 * fields' names, one form each side having both. A form matched by nothing is left unflagged.
 */
export function markScriptSubmits(
  forms: PageForm[],
  rendered: readonly RenderedForm[] | undefined,
  sameDocument: boolean,
): void {
  if (!rendered || rendered.length === 0 || !rendered.some((r) => r.scriptSubmits)) return;
  const stems = forms.map((form) => idStem(form, forms));
  const recordedIds = count(stems.filter((id) => id !== ''));
  const renderedIds = count(rendered.map((r) => r.id).filter((id) => id !== ''));
  const recordedSignatures = count(forms.map((f) => signatureOf(f.action, namesOf(f))));
  const renderedSignatures = count(rendered.map((r) => signatureOf(r.action, r.fields)));
  forms.forEach((form, i) => {
    const stem = stems[i]!;
    const signature = signatureOf(form.action, namesOf(form));
    let match: RenderedForm | undefined;
    if (sameDocument) {
      const there = rendered.find((r) => r.index === form.index);
      // Its action may differ only where the page's address did (a route the render moved to).
      if (there && there.id === stem && sameNames(there.fields, namesOf(form))) match = there;
    }
    if (!match && stem !== '' && recordedIds.get(stem) === 1 && renderedIds.get(stem) === 1)
      match = rendered.find((r) => r.id === stem);
    if (
      !match &&
      recordedSignatures.get(signature) === 1 &&
      renderedSignatures.get(signature) === 1
    )
      match = rendered.find((r) => signatureOf(r.action, r.fields) === signature);
    if (match?.scriptSubmits) form.scriptSubmits = true;
  });
}

/**
 * The id its page gave a form (its `id`, else its `name`), or '' when `findForms` named it by its
 * place (`form-3`). A repeat `findForms` numbered (`contact-2` beside `contact`) is its stem.
 */
function idStem(form: PageForm, forms: readonly PageForm[]): string {
  if (/^form-\d+(?:-\d+)?$/.test(form.id)) return '';
  const repeat = /^(.+)-\d+$/.exec(form.id);
  if (repeat && forms.some((f) => f !== form && f.id === repeat[1])) return repeat[1]!;
  return form.id;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return signatureOf('', a) === signatureOf('', b);
}

function namesOf(form: PageForm): string[] {
  return form.fields.map((f) => f.name);
}

/** Where a form submits and the names of its fields, in any order. */
function signatureOf(action: string, names: readonly string[]): string {
  const unique = [...new Set(names.filter((n) => n !== ''))].sort();
  return JSON.stringify([withoutFragment(action), unique]);
}

function withoutFragment(action: string): string {
  const hash = action.indexOf('#');
  return hash === -1 ? action : action.slice(0, hash);
}

function count(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}
