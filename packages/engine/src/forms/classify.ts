import type {
  FormFieldHolds,
  FormFieldType,
  FormKind,
  FormRefusal,
  FormService,
  PageForm,
  PageFormField,
} from '../types.js';

/**
 * What a form is for, from its fields and its words. Words are matched on text folded by
 * `foldWords` (lowercase, accents dropped, camelCase split), with stems that cover English,
 * German, French, Spanish, Italian, Portuguese, Dutch and Polish.
 */

/** subscribe · abonnieren, anmelden · s'abonner, s'inscrire · suscribirse · iscriviti, abbonati · subscrever, assinar · abonneren, aanmelden, inschrijven · subskrybuj, zapisz się */
const SUBSCRIBE =
  /subscri|subscrev|suscri|abonn|abbona|anmeld|inscri|inschrij|iscri|assin[ae]|subskryb|zapisz|zapisac|sign ?up|opt ?in|(?<![a-z])join/;
/** newsletter (en, de, fr, it, pl, pt) · nieuwsbrief · boletín, boletim · infolettre · biuletyn · notiziario */
const NEWSLETTER =
  /news ?letter|nieuwsbrief|boletin|boletim|infolettre|lettre d.info|biuletyn|notiziario|mailing ?list|lista de correo|rundbrief/;
/** search · suche · recherche · buscar, búsqueda · cerca, ricerca · pesquisa, busca · zoeken · szukaj, wyszukaj */
const SEARCH =
  /search|(?<![a-z])such(?:e|en|begriff)|recherch|busca|busque|(?<![a-z])cerca|ricerca|pesquis|(?<![a-z])zoek|szuka|wyszuk/;
/** Names a search box is sent under besides the words above (WordPress's `s`, `q`, …). */
const SEARCH_NAMES = new Set([
  'q',
  's',
  'k',
  'kw',
  'query',
  'keyword',
  'keywords',
  'term',
  'terms',
]);
/** message, comment, enquiry · Nachricht, Anfrage · message, commentaire · mensaje, consulta · messaggio, richiesta · mensagem · bericht, opmerking, vraag · wiadomość, treść, zapytanie */
const MESSAGE =
  /message|(?<![a-z])msg(?![a-z])|nachricht|mitteilung|anfrage|anliegen|mensaje|messaggio|mensagem|(?<![a-z])bericht|wiadomosc|(?<![a-z])tresc|comment|kommentar|comentario|commento|opmerking|komentarz|enquiry|inquiry|question|vraag|pregunta|domanda|pergunta|(?<![a-z])frage|richiesta|consulta|zapytanie/;
/** contact · Kontakt · contacto · contatto · contato */
const CONTACT = /contact|kontakt|contatt|(?<![a-z])contato/;
const EMAIL = /e-? ?mail|courriel|correo|(?<![a-z])mail|posta elettronica/;
/** phone, tel · Telefon, Handy · téléphone · teléfono, móvil · telefono, cellulare · telefone, celular · telefoon · telefon, komórka */
const PHONE =
  /phone|(?<![a-z])tel(?![a-z])|telef|telep|(?<![a-z])mobil|(?<![a-z])movil|(?<![a-z])handy|(?<![a-z])cell|celular|(?<![a-z])gsm|komork|whatsapp/;
/** name, your-name, FNAME · Vorname, Nachname · nom, prénom · nombre, apellido · nome, cognome · sobrenome · naam · imię, nazwisko */
const NAME =
  /(?<![a-z])(?:(?:full|first|last|sur|given|family|your|f|l|nick|display|contact)[ _-]?)?name(?![a-z])|vorname|nachname|(?<![a-z])(?:nom|prenom|nombre|apellidos?|nome|cognome|sobrenome|naam|voornaam|achternaam|imie|nazwisko)(?![a-z])/;
/** Card numbers, codes and expiry as fields name them (`card_number`, `cardNumber`, `ccnum`, `cvv`). */
const CARD =
  /(?<![a-z])(?:card ?(?:number|num|no|nr)|cc ?(?:number|num|no)|credit ?card|cvv2?|cvc2?|card ?(?:code|cvc|cvv|verification)|(?:card|cc) ?exp[a-z]*)(?![a-z])/;
const CARD_AUTOCOMPLETE = /(?<![a-z-])cc-(?:number|csc|exp)/;
/** Old Stripe.js and similar kits mark card inputs with data attributes. */
const CARD_DATA = /^(?:number|cvc|cvv|exp|exp[-_]month|exp[-_]year)$/;
/** A card widget inside a form (Stripe Elements' mount, Stripe Checkout's button, Braintree). */
const CARD_WIDGET =
  /(?<![a-z])(?:card|payment)[ _-]?element(?![a-z])|stripe ?element|stripe[ _-]?button|hosted[ _-]?field/;
/** Sign-in and password-reset forms say so: password · Passwort · mot de passe · contraseña · senha · wachtwoord · hasło · log in, connexion, inloggen, zaloguj. */
const ACCOUNT =
  /passw|kennwort|mot de passe|contrasena|senha|wachtwoord|haslo|(?<![a-z])(?:sign|log) ?in(?![a-z])|einloggen|connexion|se connecter|iniciar sesion|inloggen|zaloguj|(?<![a-z])recover/;
const HONEYPOT_NAME = /honeypot|^_gotcha$|^bot-?field$|^hp$|^b_[0-9a-f]+_[0-9a-f]+$/i;

/** Field types a person types into: what "one field" and "a few fields" count. */
const TYPED: ReadonlySet<FormFieldType> = new Set([
  'text',
  'search',
  'email',
  'url',
  'tel',
  'number',
  'password',
  'textarea',
]);

/** Services whose forms collect newsletter sign-ups. */
const NEWSLETTER_SERVICES: ReadonlySet<FormService> = new Set([
  'mailchimp',
  'brevo',
  'convertkit',
  'mailerlite',
]);

/** Action hosts of form services (the host or a subdomain of it). */
const SERVICE_HOSTS: readonly [string, FormService][] = [
  ['formspree.io', 'formspree'],
  ['getform.io', 'getform'],
  ['usebasin.com', 'basin'],
  ['formsubmit.co', 'formsubmit'],
  ['web3forms.com', 'web3forms'],
  ['list-manage.com', 'mailchimp'],
  ['mailchimp.com', 'mailchimp'],
  ['sibforms.com', 'brevo'],
  ['sendinblue.com', 'brevo'],
  ['brevo.com', 'brevo'],
  ['convertkit.com', 'convertkit'],
  ['kit.com', 'convertkit'],
  ['mailerlite.com', 'mailerlite'],
  ['hsforms.com', 'hubspot'],
  ['hubspot.com', 'hubspot'],
  ['paypal.com', 'paypal'],
];

/** Lowercase, accents dropped (`ł` too), camelCase split: `téléphoneNumber` → `telephone number`. */
export function foldWords(text: string): string {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ł/g, 'l');
}

/** What an input a person fills holds, from its type and its folded hints (name, id, placeholder…). */
export interface FieldClues {
  type: FormFieldType;
  /** Folded name, id, placeholder, `aria-label`, `title`. */
  hints: string;
  /** Lowercased `autocomplete`. */
  autocomplete: string;
  /** `data-stripe` (and similar) marks a card input. */
  cardData: boolean;
}

export function fieldHolds(clues: FieldClues): FormFieldHolds | undefined {
  const { type, hints, autocomplete } = clues;
  if (type === 'password') return 'password';
  if (
    clues.cardData ||
    CARD_AUTOCOMPLETE.test(autocomplete) ||
    CARD.test(hints.replace(/[^a-z0-9]+/g, ' '))
  )
    return 'card';
  if (type === 'email' || /(?<![a-z])email/.test(autocomplete)) return 'email';
  if (type === 'tel' || /(?<![a-z])tel/.test(autocomplete)) return 'phone';
  if (type === 'textarea') return 'message';
  if (type === 'search') return 'search';
  if (type !== 'text' && type !== 'url' && type !== 'number') return undefined;
  if (EMAIL.test(hints)) return 'email';
  if (PHONE.test(hints)) return 'phone';
  if (MESSAGE.test(hints)) return 'message';
  if (SEARCH.test(hints)) return 'search';
  if (/(?<![a-z])(?:name|given-name|family-name|nickname)/.test(autocomplete) || NAME.test(hints))
    return 'name';
  return undefined;
}

export function isCardData(value: string): boolean {
  return CARD_DATA.test(value.trim().toLowerCase());
}

export function isCardWidget(foldedIdOrClass: string): boolean {
  return CARD_WIDGET.test(foldedIdOrClass);
}

export function isHoneypotName(name: string): boolean {
  return HONEYPOT_NAME.test(name);
}

/** The service a form's action host names, or that its attributes say (Netlify, Contact Form 7). */
export function serviceOf(
  action: URL | undefined,
  netlify: boolean,
  foldedClass: string,
): FormService | undefined {
  if (netlify) return 'netlify';
  if (/(?<![a-z])wpcf7/.test(foldedClass) || action?.hash.startsWith('#wpcf7')) {
    return 'contact-form-7';
  }
  if (!action) return undefined;
  const host = action.hostname.toLowerCase();
  if (host === 'docs.google.com' && action.pathname.startsWith('/forms/')) return 'google-forms';
  for (const [suffix, service] of SERVICE_HOSTS)
    if (host === suffix || host.endsWith(`.${suffix}`)) return service;
  return undefined;
}

/** What classification reads of a form, its words folded by `foldWords`. */
export interface FormFacts {
  method: PageForm['method'];
  fields: readonly PageFormField[];
  /** The form's attributes, its fields' hints, button labels and the text inside it. */
  words: string;
  /** The text just before the form (a heading such as "Newsletter"). */
  before: string;
  /** The action's path and query. */
  actionWords: string;
  /** `role=search` on the form, or a `<search>` or `role=search` element around it. */
  roleSearch: boolean;
  /** A card widget's mount point inside it (Stripe Elements). */
  cardWidget: boolean;
  service: FormService | undefined;
}

export interface FormClass {
  kind: FormKind;
  capturable: boolean;
  refusal?: FormRefusal;
}

/**
 * Card fields first, then a password, a dialog, search, account words, newsletter, contact: the
 * first that fits. What holds a password or a card number is never captured, whatever else it is.
 */
export function classifyForm(facts: FormFacts): FormClass {
  const seen = facts.fields.filter((f) => f.type !== 'hidden' && f.honeypot !== true);
  const typed = seen.filter((f) => TYPED.has(f.type));
  const holds = (what: FormFieldHolds) => seen.some((f) => f.holds === what);
  if (holds('card') || facts.cardWidget)
    return { kind: 'payment', capturable: false, refusal: 'card-number' };
  if (facts.service === 'paypal')
    return { kind: 'payment', capturable: false, refusal: 'payment-service' };
  if (holds('password')) return { kind: 'login', capturable: false, refusal: 'password' };
  if (facts.method === 'DIALOG') return { kind: 'other', capturable: false, refusal: 'dialog' };
  const email = holds('email');
  const message = holds('message');
  const words = facts.words;
  if (!email && !message && typed.length <= 2 && isSearch(facts, seen, typed))
    return { kind: 'search', capturable: true };
  if (!message && typed.length <= 2 && ACCOUNT.test(words))
    return { kind: 'login', capturable: false, refusal: 'account' };
  if (facts.service !== undefined && NEWSLETTER_SERVICES.has(facts.service) && !message)
    return { kind: 'newsletter', capturable: true };
  if (email && !message && typed.length <= 4) {
    const said = `${words} ${facts.before}`;
    if (typed.length === 1 || SUBSCRIBE.test(said) || NEWSLETTER.test(said))
      return { kind: 'newsletter', capturable: true };
  }
  const reachable = email || holds('phone') || holds('name');
  if (message && reachable) return { kind: 'contact', capturable: true };
  if (CONTACT.test(words) && (email || holds('phone')) && typed.length >= 2)
    return { kind: 'contact', capturable: true };
  return { kind: 'other', capturable: true };
}

function isSearch(
  facts: FormFacts,
  seen: readonly PageFormField[],
  typed: readonly PageFormField[],
): boolean {
  if (facts.roleSearch || seen.some((f) => f.type === 'search')) return true;
  if (facts.method !== 'GET' || typed.length !== 1) return false;
  const box = typed[0]!;
  return (
    box.holds === 'search' ||
    SEARCH_NAMES.has(box.name.toLowerCase()) ||
    SEARCH.test(facts.actionWords)
  );
}
