import { LOCALES, type LocaleCode, type ParkingTemplate } from '@mirror/contract';
import { escapeUTF8 } from 'entities';
import { PARKING_TEXTS, type ParkingTexts } from './parking-texts.js';

/**
 * The built-in parking pages: self-contained HTML (inline CSS, system fonts, no script, no
 * external request), responsive, in the page's language (Arabic right-to-left).
 */

export type ParkingForm = 'contact' | 'offer';

export interface FormState {
  kind: ParkingForm;
  values: Record<string, string>;
  errors: Record<string, string>;
  /** A message about the whole form (rate limit). */
  error?: string;
}

export interface ParkingPageInput {
  domain: string;
  template: Exclude<ParkingTemplate, 'custom'>;
  locale: LocaleCode;
  message: string | null;
  forSale: boolean;
  askingPrice: number | null;
  /** Set after a form was sent (the redirect back says which). */
  sent: ParkingForm | null;
  /** A form sent back with its errors and values. */
  form?: FormState;
}

/** Name of the hidden field bots fill in and people never see. */
export const HONEYPOT_FIELD = 'website';

const BASE_STYLE = `*{box-sizing:border-box}html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Arabic","Noto Sans Devanagari","Noto Sans Thai","PingFang SC","Microsoft YaHei",sans-serif}
.domain{overflow-wrap:anywhere;word-break:break-word}
form{display:grid;gap:.8rem;margin:0}label{display:grid;gap:.3rem;font-size:.9rem;font-weight:600}
input,textarea{font:inherit;width:100%;padding:.65rem .8rem;border-radius:.6rem;border:1px solid #c9cde0;background:#fff;color:#1d2233}
input:focus,textarea:focus{outline:3px solid #8b9cff66;border-color:#5b6cff}
textarea{min-height:7rem;resize:vertical}
button{font:inherit;font-weight:600;cursor:pointer;border:0;border-radius:.6rem;padding:.75rem 1.2rem;background:#3b4fd8;color:#fff}
button:hover{background:#2f40b8}
.hp{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;inset-inline-start:-10000px}
.err{color:#b42318;font-size:.85rem;font-weight:500}
[aria-invalid=true]{border-color:#d92d20}
.notice{border-radius:.6rem;padding:.75rem 1rem;background:#e7f8ee;color:#14532d;font-weight:500}
.notice.bad{background:#fdecea;color:#7a1c12}
.foot{font-size:.8rem;opacity:.7}`;

const TEMPLATE_STYLES: Record<ParkingPageInput['template'], string> = {
  default: `body{min-height:100vh;display:flex;flex-direction:column;color:#fff;background:linear-gradient(135deg,#312e81 0%,#4f46e5 45%,#7c3aed 100%)}
main{flex:1;display:flex;align-items:center;justify-content:center;padding:clamp(1rem,4vw,3rem)}
.card{width:min(44rem,100%);text-align:center}
.badge{display:inline-block;padding:.3rem .8rem;border-radius:999px;background:#ffffff26;font-size:.85rem;font-weight:600;letter-spacing:.02em}
h1{font-size:clamp(2rem,7vw,4rem);line-height:1.1;margin:1rem 0 .75rem;font-weight:800}
.lead{font-size:clamp(1rem,2.4vw,1.2rem);opacity:.9;margin:0 auto;max-width:34rem}
.owner{margin:1.25rem auto 0;max-width:34rem;font-size:1.05rem}
.panel{margin:2rem auto 0;max-width:30rem;text-align:start;background:#fff;color:#1d2233;border-radius:1rem;padding:1.5rem;box-shadow:0 20px 50px #1e1b4b55}
.panel h2{margin:0 0 .25rem;font-size:1.25rem}.panel p{margin:0 0 1rem;color:#4b5165}
.price{font-size:1.6rem;font-weight:800;color:#3b4fd8}
footer{text-align:center;padding:1rem}`,
  minimalist: `body{min-height:100vh;display:flex;flex-direction:column;background:#fafaf9;color:#1c1917}
main{flex:1;display:flex;align-items:center;justify-content:center;padding:clamp(1.25rem,5vw,4rem)}
.card{width:min(40rem,100%)}
h1{font-size:clamp(1.9rem,6vw,3.4rem);font-weight:300;letter-spacing:-.02em;line-height:1.15;margin:0 0 1rem}
.lead{color:#57534e;margin:0}.owner{margin:1rem 0 0;color:#292524}
hr{border:0;border-top:1px solid #e7e5e4;margin:2rem 0}
.panel h2{font-size:1rem;font-weight:600;margin:0 0 .25rem}.panel p{color:#57534e;margin:0 0 1rem}
.price{font-size:1.3rem;font-weight:600}
button{background:#1c1917}button:hover{background:#44403c}
footer{padding:1rem clamp(1.25rem,5vw,4rem)}
@media (prefers-color-scheme:dark){body{background:#1c1917;color:#f5f5f4}.lead,.panel p{color:#a8a29e}.owner{color:#e7e5e4}hr{border-color:#44403c}button{background:#f5f5f4;color:#1c1917}button:hover{background:#d6d3d1}}`,
  'contact-form': `body{min-height:100vh;display:flex;flex-direction:column;background:#f1f5f9;color:#0f172a}
main{flex:1;display:grid;grid-template-columns:1fr;gap:2rem;align-items:center;width:min(68rem,100%);margin:0 auto;padding:clamp(1.25rem,5vw,3.5rem)}
@media (min-width:52rem){main{grid-template-columns:1.1fr 1fr}}
.intro .badge{display:inline-block;padding:.3rem .8rem;border-radius:999px;background:#dbeafe;color:#1e40af;font-size:.85rem;font-weight:600}
h1{font-size:clamp(2rem,6vw,3.5rem);line-height:1.1;margin:1rem 0 .75rem;font-weight:800;color:#0f172a}
.lead{color:#475569;margin:0}.owner{margin:1rem 0 0}
.panel{background:#fff;border-radius:1rem;padding:clamp(1.25rem,3vw,2rem);box-shadow:0 10px 30px #0f172a14}
.panel h2{margin:0 0 .25rem;font-size:1.25rem}.panel p{margin:0 0 1rem;color:#475569}
.panel+.panel{margin-top:1.5rem}
.price{font-size:1.5rem;font-weight:800;color:#1d4ed8}
footer{text-align:center;padding:1rem}`,
};

function field(
  form: FormState | undefined,
  kind: ParkingForm,
  name: string,
  label: string,
  input: (attrs: string) => string,
): string {
  const mine = form?.kind === kind ? form : undefined;
  const error = mine?.errors[name];
  const id = `${kind}-${name}`;
  const attrs = `id="${id}" name="${name}"${error ? ` aria-invalid="true" aria-describedby="${id}-err"` : ''}`;
  return `<label for="${id}">${escapeUTF8(label)}${input(attrs)}${
    error ? `<span class="err" id="${id}-err">${escapeUTF8(error)}</span>` : ''
  }</label>`;
}

function valueOf(form: FormState | undefined, kind: ParkingForm, name: string): string {
  return form?.kind === kind ? escapeUTF8(form.values[name] ?? '') : '';
}

function honeypot(kind: ParkingForm): string {
  return `<div class="hp" aria-hidden="true"><label for="${kind}-${HONEYPOT_FIELD}">Website</label><input id="${kind}-${HONEYPOT_FIELD}" name="${HONEYPOT_FIELD}" tabindex="-1" autocomplete="off"></div>`;
}

function notices(t: ParkingTexts, input: ParkingPageInput, kind: ParkingForm): string {
  if (input.sent === kind) {
    return `<p class="notice" role="status">${escapeUTF8(kind === 'contact' ? t.sentContact : t.sentOffer)}</p>`;
  }
  if (input.form?.kind === kind && input.form.error) {
    return `<p class="notice bad" role="alert">${escapeUTF8(input.form.error)}</p>`;
  }
  return '';
}

function contactForm(t: ParkingTexts, input: ParkingPageInput): string {
  const form = input.form;
  return `<section class="panel" id="contact" aria-labelledby="contact-title">
<h2 id="contact-title">${escapeUTF8(t.contactTitle)}</h2><p>${escapeUTF8(t.contactLead)}</p>
${notices(t, input, 'contact')}
<form method="post" action="/contact#contact">
${field(form, 'contact', 'name', t.name, (a) => `<input ${a} required maxlength="100" autocomplete="name" value="${valueOf(form, 'contact', 'name')}">`)}
${field(form, 'contact', 'email', t.email, (a) => `<input ${a} type="email" required maxlength="254" autocomplete="email" value="${valueOf(form, 'contact', 'email')}">`)}
${field(form, 'contact', 'message', t.message, (a) => `<textarea ${a} required maxlength="5000">${valueOf(form, 'contact', 'message')}</textarea>`)}
${honeypot('contact')}
<button type="submit">${escapeUTF8(t.send)}</button>
</form></section>`;
}

function offerForm(t: ParkingTexts, input: ParkingPageInput): string {
  const form = input.form;
  const tag = LOCALES.find((l) => l.code === input.locale)?.tag ?? 'en-US';
  const price =
    input.askingPrice !== null
      ? new Intl.NumberFormat(tag, {
          style: 'currency',
          currency: 'USD',
          maximumFractionDigits: 0,
        }).format(input.askingPrice)
      : null;
  return `<section class="panel" id="offer" aria-labelledby="offer-title">
<h2 id="offer-title">${escapeUTF8(t.forSale)}</h2>
${price ? `<p>${escapeUTF8(t.askingPrice)}: <span class="price">${escapeUTF8(price)}</span></p>` : ''}
<p>${escapeUTF8(t.offerLead)}</p>
${notices(t, input, 'offer')}
<form method="post" action="/offer#offer">
${field(form, 'offer', 'name', t.name, (a) => `<input ${a} required maxlength="100" autocomplete="name" value="${valueOf(form, 'offer', 'name')}">`)}
${field(form, 'offer', 'email', t.email, (a) => `<input ${a} type="email" required maxlength="254" autocomplete="email" value="${valueOf(form, 'offer', 'email')}">`)}
${field(form, 'offer', 'amount', t.amount, (a) => `<input ${a} type="number" required min="1" step="1" inputmode="numeric" value="${valueOf(form, 'offer', 'amount')}">`)}
${field(form, 'offer', 'message', t.messageOptional, (a) => `<textarea ${a} maxlength="2000">${valueOf(form, 'offer', 'message')}</textarea>`)}
${honeypot('offer')}
<button type="submit">${escapeUTF8(t.sendOffer)}</button>
</form></section>`;
}

/** The HTML of a built-in parking page. */
export function renderParkingPage(input: ParkingPageInput): string {
  const t = PARKING_TEXTS[input.locale];
  const locale = LOCALES.find((l) => l.code === input.locale)!;
  const domain = escapeUTF8(input.domain);
  const owner = input.message ? `<p class="owner">${escapeUTF8(input.message)}</p>` : '';
  const sale = input.forSale ? offerForm(t, input) : '';
  let body: string;
  switch (input.template) {
    case 'minimalist':
      body = `<main><div class="card">
<h1 class="domain" dir="ltr">${domain}</h1><p class="lead">${escapeUTF8(t.soon)}</p>${owner}
${sale ? `<hr>${sale}` : ''}
</div></main>`;
      break;
    case 'contact-form':
      body = `<main><div class="intro">
<span class="badge">${escapeUTF8(input.forSale ? t.forSale : t.parked)}</span>
<h1 class="domain" dir="ltr">${domain}</h1><p class="lead">${escapeUTF8(t.parkedLead)}</p>${owner}
</div><div>${contactForm(t, input)}${sale}</div></main>`;
      break;
    default:
      body = `<main><div class="card">
<span class="badge">${escapeUTF8(input.forSale ? t.forSale : t.parked)}</span>
<h1 class="domain" dir="ltr">${domain}</h1><p class="lead">${escapeUTF8(t.parkedLead)}</p>${owner}
${sale}
</div></main>`;
  }
  return `<!doctype html>
<html lang="${locale.code}" dir="${locale.dir}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${domain}${input.forSale ? ` · ${escapeUTF8(t.forSale)}` : ''}</title>
<meta name="description" content="${escapeUTF8(`${input.domain}: ${input.forSale ? t.forSale : t.parked}`)}">
<style>${BASE_STYLE}
${TEMPLATE_STYLES[input.template]}</style></head>
<body>${body}
<footer class="foot">${escapeUTF8(t.poweredBy)}</footer></body></html>`;
}
