import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { processHtml } from '../references/html.js';
import type { PageForm } from '../types.js';
import { findForms as scanForms, FORM_LIMITS, formReader } from './forms.js';

const PAGE = 'https://www.example.com/contact/';

/** The forms read while the crawl rewrites the page (one scan). */
function formsOnRewrite(html: string, pageUrl: string): PageForm[] {
  const reader = formReader(html, pageUrl);
  if (!reader) return [];
  processHtml(html, pageUrl, () => undefined, { observer: reader.observer });
  return reader.forms();
}

/** Every case reads the same forms with a scan of its own and riding on the rewrite's scan. */
function findForms(html: string, pageUrl: string): PageForm[] {
  const forms = scanForms(html, pageUrl);
  expect(formsOnRewrite(html, pageUrl)).toEqual(forms);
  return forms;
}

function only(html: string, pageUrl = PAGE): PageForm {
  const forms = findForms(html, pageUrl);
  expect(forms).toHaveLength(1);
  return forms[0]!;
}

function names(form: PageForm): string[] {
  return form.fields.map((f) => f.name);
}

describe('findForms: forms as sites write them', () => {
  it('reads a WordPress Contact Form 7 form: a contact form posting to its own page', () => {
    const form = only(`
      <div class="wpcf7 no-js" id="wpcf7-f123-p45-o1" lang="en-US" dir="ltr">
      <form action="/contact/#wpcf7-f123-p45-o1" method="post" class="wpcf7-form init" aria-label="Contact form" novalidate="novalidate" data-status="init">
        <div style="display: none;">
          <input type="hidden" name="_wpcf7" value="123" />
          <input type="hidden" name="_wpcf7_version" value="5.9.3" />
          <input type="hidden" name="_wpcf7_locale" value="en_US" />
          <input type="hidden" name="_wpcf7_unit_tag" value="wpcf7-f123-p45-o1" />
          <input type="hidden" name="_wpcf7_container_post" value="45" />
        </div>
        <p><label> Your name<br />
          <span class="wpcf7-form-control-wrap" data-name="your-name"><input size="40" maxlength="400" class="wpcf7-form-control wpcf7-text wpcf7-validates-as-required" autocomplete="name" aria-required="true" aria-invalid="false" value="" type="text" name="your-name" /></span> </label></p>
        <p><label> Your email<br />
          <span class="wpcf7-form-control-wrap" data-name="your-email"><input size="40" maxlength="400" class="wpcf7-form-control wpcf7-email wpcf7-validates-as-required wpcf7-text wpcf7-validates-as-email" autocomplete="email" aria-required="true" aria-invalid="false" value="" type="email" name="your-email" /></span> </label></p>
        <p><label> Subject<br />
          <span class="wpcf7-form-control-wrap" data-name="your-subject"><input size="40" maxlength="400" class="wpcf7-form-control wpcf7-text wpcf7-validates-as-required" aria-required="true" aria-invalid="false" value="" type="text" name="your-subject" /></span> </label></p>
        <p><label> Your message (optional)<br />
          <span class="wpcf7-form-control-wrap" data-name="your-message"><textarea cols="40" rows="10" maxlength="2000" class="wpcf7-form-control wpcf7-textarea" aria-invalid="false" name="your-message"></textarea></span> </label></p>
        <p><input class="wpcf7-form-control wpcf7-submit has-spinner" type="submit" value="Submit" /></p>
        <div class="wpcf7-response-output" aria-hidden="true"></div>
      </form>
      </div>`);
    expect(form).toMatchObject({
      id: 'form-1',
      index: 0,
      action: 'https://www.example.com/contact/#wpcf7-f123-p45-o1',
      method: 'POST',
      enctype: 'application/x-www-form-urlencoded',
      kind: 'contact',
      capturable: true,
      sameSite: true,
      serverScript: false,
      service: 'contact-form-7',
      submitLabel: 'Submit',
    });
    expect(form.refusal).toBeUndefined();
    expect(names(form)).toEqual([
      '_wpcf7',
      '_wpcf7_version',
      '_wpcf7_locale',
      '_wpcf7_unit_tag',
      '_wpcf7_container_post',
      'your-name',
      'your-email',
      'your-subject',
      'your-message',
    ]);
    expect(form.fields.slice(5)).toEqual([
      { name: 'your-name', type: 'text', required: false, holds: 'name' },
      { name: 'your-email', type: 'email', required: false, holds: 'email' },
      { name: 'your-subject', type: 'text', required: false },
      { name: 'your-message', type: 'textarea', required: false, holds: 'message' },
    ]);
  });

  it('reads a Mailchimp embedded signup form as a newsletter, its bot trap marked', () => {
    const form = only(`
      <div id="mc_embed_shell">
      <div id="mc_embed_signup">
        <form action="https://example.us21.list-manage.com/subscribe/post?u=8a1b2c3d4e5f&amp;id=0a1b2c3d4e&amp;f_id=00abcde1f0" method="post" id="mc-embedded-subscribe-form" name="mc-embedded-subscribe-form" class="validate" target="_blank">
          <div id="mc_embed_signup_scroll"><h2>Subscribe</h2>
            <div class="indicates-required"><span class="asterisk">*</span> indicates required</div>
            <div class="mc-field-group"><label for="mce-EMAIL">Email Address <span class="asterisk">*</span></label><input type="email" name="EMAIL" class="required email" id="mce-EMAIL" required="" value=""></div>
            <div class="mc-field-group"><label for="mce-FNAME">First Name </label><input type="text" name="FNAME" class=" text" id="mce-FNAME" value=""></div>
            <div id="mce-responses" class="clear foot"><div class="response" id="mce-error-response" style="display: none;"></div></div>
            <div aria-hidden="true" style="position: absolute; left: -5000px;"><input type="text" name="b_8a1b2c3d4e5f_0a1b2c3d4e" tabindex="-1" value=""></div>
            <div class="optionalParent"><div class="clear foot"><input type="submit" name="subscribe" id="mc-embedded-subscribe" class="button" value="Subscribe"></div></div>
          </div>
        </form>
      </div>
      </div>`);
    expect(form).toMatchObject({
      id: 'mc-embedded-subscribe-form',
      action:
        'https://example.us21.list-manage.com/subscribe/post?u=8a1b2c3d4e5f&id=0a1b2c3d4e&f_id=00abcde1f0',
      method: 'POST',
      kind: 'newsletter',
      capturable: true,
      sameSite: false,
      serverScript: false,
      service: 'mailchimp',
      submitLabel: 'Subscribe',
    });
    expect(form.fields).toEqual([
      { name: 'EMAIL', type: 'email', required: true, holds: 'email' },
      { name: 'FNAME', type: 'text', required: false, holds: 'name' },
      { name: 'b_8a1b2c3d4e5f_0a1b2c3d4e', type: 'text', required: false, honeypot: true },
    ]);
  });

  it('reads a Netlify form, its honeypot named by the form', () => {
    const form = only(`
      <form name="contact" method="POST" data-netlify="true" netlify-honeypot="bot-field" action="/thank-you/">
        <input type="hidden" name="form-name" value="contact" />
        <p class="hidden"><label>Don’t fill this out if you’re human: <input name="bot-field" /></label></p>
        <p><label>Your Name: <input type="text" name="name" required /></label></p>
        <p><label>Your Email: <input type="email" name="email" required /></label></p>
        <p><label>Your Role: <select name="role[]" multiple>
          <option value="leader">Leader</option>
          <option value="follower">Follower</option>
        </select></label></p>
        <p><label>Message: <textarea name="message"></textarea></label></p>
        <p><button type="submit">Send</button></p>
      </form>`);
    expect(form).toMatchObject({
      id: 'contact',
      action: 'https://www.example.com/thank-you/',
      method: 'POST',
      kind: 'contact',
      capturable: true,
      sameSite: true,
      serverScript: false,
      service: 'netlify',
      submitLabel: 'Send',
    });
    expect(form.fields).toEqual([
      { name: 'form-name', type: 'hidden', required: false },
      { name: 'bot-field', type: 'text', required: false, honeypot: true },
      { name: 'name', type: 'text', required: true, holds: 'name' },
      { name: 'email', type: 'email', required: true, holds: 'email' },
      {
        name: 'role[]',
        type: 'select',
        required: false,
        multiple: true,
        options: ['leader', 'follower'],
      },
      { name: 'message', type: 'textarea', required: false, holds: 'message' },
    ]);
  });

  it('reads site search forms: Hugo, WordPress and a <search> element', () => {
    const hugo = only(
      `<form id="search" action="https://example.com/search" method="get">
         <label hidden for="search-input">Search site</label>
         <input type="text" id="search-input" name="query" placeholder="Type here to search">
         <input type="submit" value="search">
       </form>`,
      'https://example.com/posts/hello/',
    );
    expect(hugo).toMatchObject({
      id: 'search',
      action: 'https://example.com/search',
      method: 'GET',
      kind: 'search',
      capturable: true,
      sameSite: true,
      submitLabel: 'search',
    });
    expect(hugo.fields).toEqual([
      { name: 'query', type: 'text', required: false, holds: 'search' },
    ]);

    const wordpress = only(
      `<form role="search" method="get" class="search-form" action="https://example.com/">
        <label><span class="screen-reader-text">Search for:</span>
        <input type="search" class="search-field" placeholder="Search &hellip;" value="" name="s" /></label>
        <input type="submit" class="search-submit" value="Search" />
      </form>`,
      'https://www.example.com/blog/',
    );
    expect(wordpress).toMatchObject({ kind: 'search', sameSite: true, method: 'GET' });

    // A Docusaurus-style header: a GET form of a single box, no words, named q, in <search>.
    const header = only(
      '<nav class="navbar"><search><form action="/search"><input name="q" aria-label="Search"></form></search></nav>',
    );
    expect(header).toMatchObject({ kind: 'search', action: 'https://www.example.com/search' });
  });

  it('never captures a login form', () => {
    const form = only(`
      <form id="loginform" action="https://example.com/wp-login.php" method="post" name="loginform">
        <p><label for="user_login">Username or Email Address</label>
        <input type="text" name="log" id="user_login" autocomplete="username" value="" size="20" autocapitalize="off" required="required"></p>
        <div class="user-pass-wrap"><label for="user_pass">Password</label>
        <input type="password" name="pwd" id="user_pass" autocomplete="current-password" spellcheck="false" value="" size="20" required="required"></div>
        <p class="forgetmenot"><input name="rememberme" type="checkbox" id="rememberme" value="forever"> <label for="rememberme">Remember Me</label></p>
        <p class="submit"><input type="submit" name="wp-submit" id="wp-submit" class="button button-primary button-large" value="Log In">
        <input type="hidden" name="redirect_to" value="https://example.com/wp-admin/"></p>
      </form>`);
    expect(form).toMatchObject({
      kind: 'login',
      capturable: false,
      refusal: 'password',
      sameSite: true,
      serverScript: true,
    });
    expect(form.fields.find((f) => f.name === 'pwd')).toMatchObject({
      type: 'password',
      holds: 'password',
    });
    expect(form.fields.find((f) => f.name === 'rememberme')).toMatchObject({
      type: 'checkbox',
      options: ['forever'],
    });
    // A password reset form has no password field: its words say what it is.
    const reset = only(`
      <form id="lostpasswordform" action="/wp-login.php?action=lostpassword" method="post">
        <label for="user_login">Username or Email Address</label>
        <input type="text" name="user_login" id="user_login" autocomplete="username">
        <input type="submit" value="Get New Password">
      </form>`);
    expect(reset).toMatchObject({ kind: 'login', capturable: false, refusal: 'account' });
  });

  it('never captures a checkout with card fields, nor one with a card widget', () => {
    const form = only(`
      <form action="/charge" method="post" id="payment-form">
        <input type="text" name="name" autocomplete="cc-name" placeholder="Name on card">
        <input type="email" name="email" autocomplete="email">
        <input type="text" name="card_number" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234">
        <select name="exp_month" autocomplete="cc-exp-month"><option>01</option><option>02</option></select>
        <input type="text" name="cvc" autocomplete="cc-csc" placeholder="CVC">
        <button type="submit">Pay $20.00</button>
      </form>`);
    expect(form).toMatchObject({
      kind: 'payment',
      capturable: false,
      refusal: 'card-number',
      submitLabel: 'Pay $20.00',
    });
    expect(form.fields.map((f) => f.holds)).toEqual(['name', 'email', 'card', 'card', 'card']);
    expect(form.fields[3]!.options).toEqual(['01', '02']);
    // Fields named without autocomplete, as older shops do.
    for (const name of ['cardNumber', 'ccnum', 'cc-number', 'card[number]', 'cvv', 'card_cvc']) {
      const named = only(
        `<form method="post"><input name="email" type="email"><input name="${name}"></form>`,
      );
      expect(named, name).toMatchObject({ kind: 'payment', capturable: false });
    }
    // Stripe Elements mounts an iframe: the form holds only its mount point.
    const elements = only(`
      <form id="payment-form" method="post">
        <input id="email" type="email" name="email" placeholder="Enter email address" />
        <div id="payment-element"><!--Stripe.js injects the Payment Element--></div>
        <button id="submit"><span id="button-text">Pay now</span></button>
      </form>`);
    expect(elements).toMatchObject({ kind: 'payment', refusal: 'card-number' });
    // PayPal's buy button pays through PayPal: hidden fields and an image to click.
    const paypal = only(`
      <form action="https://www.paypal.com/cgi-bin/webscr" method="post" target="_top">
        <input type="hidden" name="cmd" value="_s-xclick">
        <input type="hidden" name="hosted_button_id" value="ABCDEF123">
        <input type="image" src="https://www.paypalobjects.com/en_US/i/btn/btn_buynow_LG.gif" name="submit" alt="PayPal - The safer, easier way to pay online!">
      </form>`);
    expect(paypal).toMatchObject({
      kind: 'payment',
      capturable: false,
      refusal: 'payment-service',
      service: 'paypal',
      sameSite: false,
      submitLabel: 'PayPal - The safer, easier way to pay online!',
    });
    // A card holder's name or a discard note is no card.
    const notCard = only(
      `<form method="post"><input name="discard_notes"><textarea name="message"></textarea><input type="email" name="email"></form>`,
    );
    expect(notCard.kind).toBe('contact');
  });

  it('reads a plain PHP contact form: its action is a script the copy will not have', () => {
    const form = only(`
      <h2>Get in touch</h2>
      <form action="contact.php" method="POST" class="contact">
        <input type="text" name="fullname" placeholder="Full name" required>
        <input type="text" name="email" placeholder="Your e-mail" required>
        <input type="text" name="phone" placeholder="Phone">
        <textarea name="comments" rows="6" required></textarea>
        <input type="submit" name="send" value="Send message">
      </form>`);
    expect(form).toMatchObject({
      action: 'https://www.example.com/contact/contact.php',
      kind: 'contact',
      capturable: true,
      sameSite: true,
      serverScript: true,
      submitLabel: 'Send message',
    });
    expect(form.fields.map((f) => f.holds)).toEqual(['name', 'email', 'phone', 'message']);
    // Other scripts of a server, and the same script on another site.
    for (const action of [
      '/cgi-bin/formmail',
      '/send.aspx',
      '/mail.cgi',
      '/form.pl',
      '/wp-admin/admin-post.php',
      '/index.php?route=contact',
      'http://example.com/Contact.ASP',
    ])
      expect(only(`<form action="${action}"></form>`).serverScript, action).toBe(true);
    expect(only('<form action="/contact/thanks"></form>').serverScript).toBe(false);
    expect(only('<form action="https://other.example.org/contact.php"></form>')).toMatchObject({
      sameSite: false,
      serverScript: false,
    });
  });

  it('reads a multipart form with a file input', () => {
    const form = only(`
      <form action="/careers/apply" method="post" enctype="multipart/form-data" id="apply">
        <input name="name" required><input name="email" type="email" required>
        <input type="file" name="cv" accept=".pdf,.doc" required>
        <input type="file" name="attachments" multiple>
        <textarea name="cover_letter" placeholder="Your message"></textarea>
        <button>Apply</button>
      </form>`);
    expect(form).toMatchObject({
      enctype: 'multipart/form-data',
      method: 'POST',
      kind: 'contact',
      submitLabel: 'Apply',
    });
    expect(form.fields.filter((f) => f.type === 'file')).toEqual([
      { name: 'cv', type: 'file', required: true },
      { name: 'attachments', type: 'file', required: false, multiple: true },
    ]);
  });

  it('takes in fields tied by form="id" from outside, in document order', () => {
    const forms = findForms(
      `<input type="email" name="early" form="signup">
       <form id="signup" action="/subscribe" method="post">
         <input type="text" name="inside">
         <input type="radio" name="plan" value="free">
       </form>
       <input type="radio" name="plan" value="pro" form="signup">
       <textarea name="note" form="signup"></textarea>
       <select name="topic" form="signup"><option>News</option><option value="offers">Offers</option></select>
       <input name="nowhere" form="missing">
       <input name="stray">
       <button form="signup" type="submit">Join now</button>`,
      PAGE,
    );
    expect(forms).toHaveLength(1);
    const form = forms[0]!;
    expect(form.fields).toEqual([
      { name: 'early', type: 'email', required: false, holds: 'email', outside: true },
      { name: 'inside', type: 'text', required: false },
      { name: 'plan', type: 'radio', required: false, options: ['free', 'pro'] },
      { name: 'note', type: 'textarea', required: false, holds: 'message', outside: true },
      {
        name: 'topic',
        type: 'select',
        required: false,
        options: ['News', 'offers'],
        outside: true,
      },
    ]);
    expect(form.submitLabel).toBe('Join now');
    // A field inside a form that names another belongs to that other one only.
    const [a, b] = findForms(
      '<form id="a"><input name="x" form="b"><input name="y"></form><form id="b"></form>',
      PAGE,
    );
    expect(names(a!)).toEqual(['y']);
    expect(names(b!)).toEqual(['x']);
  });

  it("reads a shop's forms: Shopify's newsletter, contact and password reset, an add-to-cart", () => {
    const shop = 'https://shop.example.com/';
    const newsletter = only(
      `<form method="post" action="/contact#contact_form" id="contact_form" accept-charset="UTF-8" class="footer__newsletter newsletter-form">
        <input type="hidden" name="form_type" value="customer" /><input type="hidden" name="utf8" value="✓" />
        <input type="hidden" name="contact[tags]" value="newsletter">
        <input id="NewsletterForm--footer" type="email" name="contact[email]" class="field__input" value="" aria-required="true" autocorrect="off" autocapitalize="off" autocomplete="email" placeholder="Email" required>
        <button type="submit" class="newsletter-form__button field__button" name="commit" id="Subscribe" aria-label="Subscribe">→</button>
      </form>`,
      shop,
    );
    expect(newsletter).toMatchObject({ kind: 'newsletter', id: 'contact_form', sameSite: true });
    const contact = only(
      `<form method="post" action="/contact#ContactForm" id="ContactForm" accept-charset="UTF-8" class="isolate">
        <input type="hidden" name="form_type" value="contact" /><input type="hidden" name="utf8" value="✓" />
        <input class="field__input" autocomplete="name" type="text" id="ContactForm-name" name="contact[Name]" value="" placeholder="Name">
        <input autocomplete="email" type="email" id="ContactForm-email" class="field__input" name="contact[email]" spellcheck="false" autocapitalize="off" value="" aria-required="true" placeholder="Email">
        <input type="tel" id="ContactForm-phone" class="field__input" autocomplete="tel" name="contact[Phone number]" pattern="[0-9\\-]*" value="" placeholder="Phone number">
        <textarea rows="10" id="ContactForm-body" class="text-area field__input" name="contact[Comment]" placeholder="Comment"></textarea>
        <button type="submit" class="button">Send</button>
      </form>`,
      shop,
    );
    expect(contact).toMatchObject({ kind: 'contact', capturable: true, submitLabel: 'Send' });
    expect(contact.fields.map((f) => f.holds)).toEqual([
      undefined,
      undefined,
      'name',
      'email',
      'phone',
      'message',
    ]);
    const recover = only(
      `<form method="post" action="/account/recover" accept-charset="UTF-8">
        <input type="hidden" name="form_type" value="recover_customer_password" />
        <input type="email" value="" name="email" id="RecoverEmail" autocomplete="email" placeholder="Email">
        <button>Submit</button>
      </form>`,
      shop,
    );
    expect(recover).toMatchObject({ kind: 'login', capturable: false, refusal: 'account' });
    const cart = only(
      `<form class="cart" action="https://shop.example.com/product/mug/" method="post" enctype="multipart/form-data">
        <div class="quantity"><label class="screen-reader-text" for="quantity_1">Mug quantity</label>
        <input type="number" id="quantity_1" class="input-text qty text" name="quantity" value="1" min="1" step="1" inputmode="numeric" autocomplete="off" /></div>
        <button type="submit" name="add-to-cart" value="123" class="single_add_to_cart_button button alt">Add to cart</button>
        <input type="image" src="/img/paypal.png" alt="Buy with PayPal">
      </form>`,
      shop,
    );
    expect(cart).toMatchObject({ kind: 'other', capturable: true, submitLabel: 'Add to cart' });
  });

  it('reads French and German newsletter forms', () => {
    const french = only(
      `<section><h3>Restez informé</h3><p>Recevez notre lettre d'information chaque mois.</p>
       <form action="/newsletter/inscription" method="post">
         <input type="text" name="prenom" placeholder="Prénom">
         <input type="text" name="courriel" placeholder="Votre adresse courriel" required>
         <label><input type="checkbox" name="rgpd" required> J'accepte la politique de confidentialité</label>
         <button type="submit">S’abonner</button>
       </form></section>`,
      'https://www.exemple.fr/',
    );
    expect(french).toMatchObject({
      kind: 'newsletter',
      capturable: true,
      submitLabel: 'S’abonner',
    });
    expect(french.fields.map((f) => f.holds)).toEqual(['name', 'email', undefined]);

    const german = only(
      `<div class="footer-widget"><h4>Newsletter</h4>
       <form action="https://www.beispiel.de/?na=s" method="post">
         <input type="hidden" name="nlang" value="">
         <input class="tnp-name" type="text" name="nn" placeholder="Vorname">
         <input class="tnp-email" type="email" name="ne" placeholder="E-Mail-Adresse" required>
         <input class="tnp-privacy" type="checkbox" name="ny" required> Ich akzeptiere die Datenschutzerklärung
         <input class="tnp-submit" type="submit" value="Jetzt anmelden">
       </form></div>`,
      'https://www.beispiel.de/kontakt',
    );
    expect(german).toMatchObject({
      kind: 'newsletter',
      sameSite: true,
      submitLabel: 'Jetzt anmelden',
    });
  });

  it('classifies by words in other languages: contact, search, newsletter', () => {
    const cases: [string, string, PageForm['kind']][] = [
      [
        'de',
        '<input name="name"><input name="email" type="email"><textarea name="nachricht"></textarea>',
        'contact',
      ],
      ['es', '<input name="nombre"><input name="correo"><input name="mensaje">', 'contact'],
      ['it', '<input name="nome"><input name="telefono"><input name="messaggio">', 'contact'],
      ['pt', '<input name="nome"><input name="email"><input name="mensagem">', 'contact'],
      ['nl', '<input name="naam"><input name="e-mailadres"><input name="bericht">', 'contact'],
      ['pl', '<input name="imie"><input name="email"><input name="wiadomosc">', 'contact'],
      ['pl phone', '<input name="nazwisko"><input name="telefon"><h3>Kontakt</h3>', 'contact'],
      ['es search', '<input name="buscar">', 'search'],
      ['it search', '<input name="cerca">', 'search'],
      ['nl search', '<input name="zoekterm">', 'search'],
      ['pl search', '<input name="fraza" placeholder="Szukaj">', 'search'],
      [
        'it newsletter',
        '<input name="nome"><input name="email"><button>Iscriviti</button>',
        'newsletter',
      ],
      [
        'nl newsletter',
        '<input name="naam"><input name="email"><button>Inschrijven</button>',
        'newsletter',
      ],
      [
        'pl newsletter',
        '<input name="imie"><input name="email"><button>Zapisz się</button>',
        'newsletter',
      ],
      [
        'es newsletter',
        '<input name="nombre"><input name="email"><button>Suscríbete</button>',
        'newsletter',
      ],
      [
        'pt newsletter',
        '<input name="nome"><input name="email"><button>Assine</button>',
        'newsletter',
      ],
      ['quantity', '<input type="number" name="qty"><button>Add to cart</button>', 'other'],
    ];
    for (const [label, fields, kind] of cases) {
      const method = kind === 'search' ? 'get' : 'post';
      expect(only(`<form method="${method}">${fields}</form>`).kind, label).toBe(kind);
    }
  });
});

describe('findForms: the document as a browser reads it', () => {
  it('resolves actions against <base href>, and an empty action is the page itself', () => {
    const forms = findForms(
      `<head><base href="https://cdn.example.com/app/"></head>
       <form action="send"></form><form action=""></form><form></form>
       <form action="  mailto:hello@example.com "></form><form action="javascript:void(0)"></form>
       <form action="http://[bad"></form>`,
      'https://www.example.com/a/b?x=1',
    );
    expect(forms.map((f) => [f.action, f.sameSite])).toEqual([
      ['https://cdn.example.com/app/send', false],
      ['https://www.example.com/a/b?x=1', true],
      ['https://www.example.com/a/b?x=1', true],
      ['mailto:hello@example.com', false],
      ['javascript:void(0)', false],
      ['http://[bad', false],
    ]);
    // `www.` aside, the page's host is its site; another subdomain is not.
    expect(only('<form action="https://example.com/x"></form>').sameSite).toBe(true);
    expect(only('<form action="https://shop.example.com/x"></form>').sameSite).toBe(false);
  });

  it('reads method, enctype and ids as a browser does', () => {
    const forms = findForms(
      `<form method="PoSt" enctype="TEXT/PLAIN" id="a"></form><form method="put" enctype="json"></form>
       <form method="dialog" name="a"></form><form id="a"></form><form id="form-5"></form>`,
      PAGE,
    );
    expect(forms.map((f) => [f.id, f.method, f.enctype])).toEqual([
      ['a', 'POST', 'text/plain'],
      ['form-2', 'GET', 'application/x-www-form-urlencoded'],
      ['a-2', 'DIALOG', 'application/x-www-form-urlencoded'],
      ['a-3', 'GET', 'application/x-www-form-urlencoded'],
      ['form-5', 'GET', 'application/x-www-form-urlencoded'],
    ]);
    expect(forms[2]).toMatchObject({ capturable: false, refusal: 'dialog' });
  });

  it('ignores a nested form, runs an unclosed one to the end, and skips template and noscript', () => {
    const forms = findForms(
      `<form id="outer"><input name="a"><form id="inner"><input name="b"></form><input name="after">
       <template><form id="t"><input name="t"></form></template>
       <noscript><form id="n"><input name="n"></form></noscript>
       <script>document.write('<form id="s"><input name="s">')</script>
       <textarea name="ignored"><form id="text"></textarea>
       <form id="last"><input name="c"><div></form></div><input name="d">`,
      PAGE,
    );
    expect(forms.map((f) => [f.id, names(f)])).toEqual([
      ['outer', ['a', 'b']],
      ['last', ['c']],
    ]);
    // A form opened and never closed holds what follows, also past other elements' ends.
    const open = only('<div><form id="x"></div><p><input name="y"><select name="z">');
    expect(names(open)).toEqual(['y', 'z']);
  });

  it('reads options as values or their text, and bounds them', () => {
    const many = Array.from({ length: 500 }, (_, i) => `<option>Choice &amp; ${i}</option>`).join(
      '',
    );
    const form = only(
      `<form><select name="s"><optgroup label="g"><option value="v1">One<option> Two
       words </option></optgroup>${many}</select><input type="radio" name="r"><input type="radio" name="r" value="2" required></form>`,
    );
    const [select, radio] = form.fields;
    expect(select!.options).toHaveLength(FORM_LIMITS.optionsPerField);
    expect(select!.options!.slice(0, 3)).toEqual(['v1', 'Two words', 'Choice & 0']);
    expect(radio).toEqual({ name: 'r', type: 'radio', required: true, options: ['on', '2'] });
  });

  it('costs nothing on a page without a form', () => {
    expect(findForms('<p>formal <formula> text</p><input name="x">', PAGE)).toEqual([]);
    expect(findForms('', PAGE)).toEqual([]);
  });
});

describe('findForms: hostile pages stay small', () => {
  it('keeps 200 of 100,000 inputs and counts the rest', () => {
    const html = `<form id="big">${'<input name="f" type="text">'.repeat(100_000)}</form>`;
    const form = only(html);
    expect(form.fields).toHaveLength(FORM_LIMITS.fieldsPerForm);
    expect(form.fieldsOmitted).toBe(100_000 - FORM_LIMITS.fieldsPerForm);
    expect(JSON.stringify(form).length).toBeLessThan(20_000);
  });

  it('keeps 50 of 100,000 forms, and fields of the forms past that go nowhere', () => {
    const forms = findForms('<form><input name="a"></form>'.repeat(100_000), PAGE);
    expect(forms).toHaveLength(FORM_LIMITS.formsPerPage);
    expect(forms.every((f) => f.fields.length === 1)).toBe(true);
    expect(new Set(forms.map((f) => f.id)).size).toBe(FORM_LIMITS.formsPerPage);
  });

  it('reads 100,000 unclosed nested forms as one', () => {
    const forms = findForms('<form><input name="a">'.repeat(100_000), PAGE);
    expect(forms).toHaveLength(1);
    expect(forms[0]!.fields).toHaveLength(FORM_LIMITS.fieldsPerForm);
  });

  it('cuts 2 MB attributes and text to their limits', () => {
    const huge = 'x'.repeat(2 * 1024 * 1024);
    const forms = findForms(
      `<form id="${huge}" action="/${huge}" class="${huge}"><input name="${huge}" placeholder="${huge}">
       <select name="s"><option>${huge}</option></select><button>${huge}</button>${huge}</form>
       <p>${huge}</p><form name="n"><input form="${huge}"></form>`,
      PAGE,
    );
    expect(forms).toHaveLength(2);
    const [form] = forms;
    expect(form!.id).toHaveLength(FORM_LIMITS.labelChars);
    expect(form!.action.length).toBeLessThanOrEqual(FORM_LIMITS.urlChars);
    expect(form!.fields[0]!.name).toHaveLength(FORM_LIMITS.nameChars);
    expect(form!.fields[1]!.options![0]).toHaveLength(FORM_LIMITS.nameChars);
    expect(form!.submitLabel).toHaveLength(FORM_LIMITS.labelChars);
    expect(JSON.stringify(forms).length).toBeLessThan(10_000);
  });

  it('bounds fields tied from outside to an unknown form, and 100,000 options', () => {
    const outside = '<input name="o" form="f">'.repeat(100_000);
    const options = `<select name="s">${'<option>o'.repeat(100_000)}`;
    const forms = findForms(`<form id="f">${options}</select></form>${outside}`, PAGE);
    expect(forms[0]!.fields[0]!.options).toHaveLength(FORM_LIMITS.optionsPerField);
    expect(forms[0]!.fields.length).toBeLessThanOrEqual(FORM_LIMITS.fieldsPerForm);
    expect(forms[0]!.fieldsOmitted).toBeGreaterThan(0);
  });
});

describe('findForms riding on the rewrite', () => {
  /** Pieces of markup that move the form pointer, templates, search boxes, options and buttons. */
  const PIECES = [
    '<form action="/a.php" method="post" id="f">',
    '<form role="search" action="https://www.example.com/search">',
    '<form class="newsletter" data-netlify="true">',
    '</form>',
    '<input type="email" name="email" required>',
    '<input name="q" placeholder="Search" aria-label="Search">',
    '<input type="checkbox" name="c" value="1">',
    '<input type="submit" value="Send">',
    '<input name="outside" form="f">',
    '<textarea name="m">hi <form> there</textarea>',
    '<select name="s"><option value="1">One<option>Two</select>',
    '<button>Subscribe</button>',
    '<button type="button">No</button>',
    '<template><form action="/t"><input name="t"></form></template>',
    '<template>',
    '</template>',
    '<noscript><form action="/n"><input name="n"></form></noscript>',
    '<div role="search">',
    '<search>',
    '</search>',
    '</div>',
    '<h2>Contact us</h2>',
    'Newsletter &amp; news',
    '<script>var s = "<form>";</script>',
    '<style>.a::before { content: "<form>" }</style>',
    '<!-- <form action="/c"> -->',
    '<base href="/base/">',
    '<svg><rect width="1" height="1"/></svg>',
    '<img src="/i.png" class="x" title="t" alt="a">',
    '<a href="/p" class="link">Link</a>',
  ];

  it('reads the same forms as its own scan, in any arrangement of the pieces that matter', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }), (pieces) => {
        const html = `<!doctype html><title>T</title>${pieces.join('\n')}<form>`;
        expect(formsOnRewrite(html, PAGE)).toEqual(scanForms(html, PAGE));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves the rewrite as it was', () => {
    const html = `<form action="/a.php" class="c"><input name="q" value="v"></form><img src="/i.png" class="x" alt="a">`;
    const visit = (ref: { url: string }) => `local${new URL(ref.url).pathname}`;
    const alone = processHtml(html, PAGE, visit);
    const reader = formReader(html, PAGE)!;
    const riding = processHtml(html, PAGE, visit, { observer: reader.observer });
    expect(riding.html).toBe(alone.html);
    expect(riding.refs).toEqual(alone.refs);
    expect(riding.html).toContain('src="local/i.png"');
    expect(reader.forms()).toHaveLength(1);
  });
});
