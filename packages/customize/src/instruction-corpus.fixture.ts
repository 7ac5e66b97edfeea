import type { EditOp, ReplaceTextOp } from './types.js';

/**
 * Instructions as site owners really write them, with what the built-in engine must make of them
 * (issue 19). Most are said while looking at a Clean Blog–style page (BLOG_HTML); some at the Acme
 * test fixture, some with no page at all. Run by instruction-corpus.test.ts.
 */

export interface CorpusCase {
  /** What the owner typed, verbatim. */
  say: string;
  /** The page the owner looks at: the blog below (default), the Acme fixture, or none. */
  page?: 'blog' | 'acme' | 'none';
  /** The plan's ops, exactly (default: none). */
  ops?: EditOp[];
  /**
   * Parts not understood (verbatim) and the phrasing offered instead (default: none); null when
   * nothing the engine can do comes close.
   */
  rejected?: [part: string, suggestion: string | null][];
  /** The other phrasings offered for the first part not understood, when the case checks them. */
  alternatives?: string[];
  /** What describePlan says, when the case checks it. */
  says?: string[];
  /** Set when the engine does not get this one yet: why. Runs as it.fails. */
  fails?: string;
}

export const BLOG_HTML = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1, shrink-to-fit=no" />
  <meta name="description" content="A blog theme by Start Bootstrap" />
  <title>Clean Blog - Start Bootstrap Theme</title>
  <link href="css/styles.css" rel="stylesheet" />
</head>
<body>
  <nav class="navbar navbar-expand-lg navbar-light" id="mainNav">
    <div class="container px-4 px-lg-5">
      <a class="navbar-brand" href="index.html">Start Bootstrap</a>
      <button class="navbar-toggler" type="button" aria-label="Toggle navigation">Menu <i class="fas fa-bars"></i></button>
      <div class="collapse navbar-collapse" id="navbarResponsive">
        <ul class="navbar-nav ms-auto py-4 py-lg-0">
          <li class="nav-item"><a class="nav-link px-lg-3 py-3 py-lg-4" href="index.html">Home</a></li>
          <li class="nav-item"><a class="nav-link px-lg-3 py-3 py-lg-4" href="about.html">About</a></li>
          <li class="nav-item"><a class="nav-link px-lg-3 py-3 py-lg-4" href="post.html">Sample Post</a></li>
          <li class="nav-item"><a class="nav-link px-lg-3 py-3 py-lg-4" href="contact.html">Contact</a></li>
        </ul>
      </div>
    </div>
  </nav>
  <header class="masthead" style="background-image: url('assets/img/home-bg.jpg')">
    <div class="container position-relative px-4 px-lg-5">
      <div class="site-heading">
        <h1>Clean Blog</h1>
        <span class="subheading">A Blog Theme by Start Bootstrap</span>
      </div>
    </div>
  </header>
  <div class="container px-4 px-lg-5">
    <div class="post-preview">
      <a href="post.html">
        <h2 class="post-title">Man must explore, and this is exploration at its greatest</h2>
        <h3 class="post-subtitle">Problems look mighty small from 150 miles up</h3>
      </a>
      <p class="post-meta">Posted by <a href="#!">Start Bootstrap</a> on September 24, 2023</p>
    </div>
    <div class="post-preview">
      <a href="post.html"><h2 class="post-title">I believe every human has a finite number of heartbeats.</h2></a>
      <p class="post-meta">Posted by <a href="#!">Start Bootstrap</a> on September 18, 2023</p>
    </div>
    <div class="d-flex justify-content-end mb-4"><a class="btn btn-primary text-uppercase" href="#!">Older Posts →</a></div>
  </div>
  <section id="newsletter" class="newsletter">
    <h2>Join the newsletter</h2>
    <form action="/subscribe"><input type="email" placeholder="Your email"><button type="submit" class="btn btn-dark">Subscribe</button></form>
  </section>
  <div id="newsletter-popup" class="modal" role="dialog">
    <p>Get new posts by email!</p>
    <a class="btn btn-secondary" href="/subscribe">Sign me up</a>
  </div>
  <div class="cookie-banner" role="dialog">
    <p>We use cookies to improve your experience.</p>
    <button class="btn btn-light cookie-accept">Accept</button>
  </div>
  <footer class="border-top">
    <div class="container px-4 px-lg-5">
      <address class="contact">42 Baker Street, London NW1 6XE</address>
      <p class="contact-line">Call us: <a href="tel:+442079460958">+44 20 7946 0958</a> · Email: <a href="mailto:hello@startbootstrap.com">hello@startbootstrap.com</a></p>
      <div class="small text-center text-muted fst-italic">Copyright &copy; Start Bootstrap 2023</div>
    </div>
  </footer>
</body>
</html>
`;

export const BLOG_CSS = `:root { --bs-primary: #0085a1; --bs-font-sans-serif: "Open Sans", sans-serif; }
body { font-family: Lora, "Times New Roman", serif; color: #212529; background-color: #fff; }
h1, h2, h3 { font-family: "Open Sans", sans-serif; font-weight: 800; }
a { color: #212529; }
a:hover, a:focus { color: #0085a1; }
.btn-primary { background-color: #0085a1; border-color: #0085a1; color: #fff; }
.masthead { background-color: #6c757d; color: #fff; }
.navbar-brand { font-weight: 800; }
`;

const gf = (family: string) =>
  `https://fonts.googleapis.com/css2?family=${family.replace(/ /g, '+')}&display=swap`;
const replace = (find: string, with_: string): ReplaceTextOp => ({
  op: 'replaceText',
  find,
  replace: with_,
});
const primary = (to: string): EditOp => ({ op: 'changeColor', role: 'primary', to });
const accent = (to: string): EditOp => ({ op: 'changeColor', role: 'accent', to });
const background = (to: string): EditOp => ({ op: 'changeColor', role: 'background', to });
const textColor = (to: string): EditOp => ({ op: 'changeColor', role: 'text', to });
const DARK = [background('#121212'), textColor('#eeeeee')];
const LIGHT = [background('#ffffff'), textColor('#222222')];
const font = (family: string, role?: 'headings' | 'body'): EditOp => {
  const op: EditOp = { op: 'changeFont', family };
  if (role) op.role = role;
  if (!['Georgia', 'Arial', 'serif', 'Comic Sans MS'].includes(family)) {
    op.stylesheetUrl = gf(family);
  }
  return op;
};
const heading = (text: string): EditOp => ({ op: 'setText', selector: 'h1', text, pages: ['/'] });
const tagline = (text: string): EditOp => ({
  op: 'setText',
  selector: 'h1 + *',
  text,
  pages: ['/'],
});
const button = (current: string, text: string): EditOp => ({
  op: 'setText',
  selector: 'a, button',
  withText: current,
  text,
});
const size = (what: 'headings' | 'text', zoom: number): EditOp => ({
  op: 'insertHtml',
  selector: 'head',
  position: 'append',
  html: `<style data-mirror-size="${what}">${what === 'headings' ? 'h1,h2,h3,h4,h5,h6' : 'p,li,blockquote,dd,dt,figcaption,td,th,label'}{zoom:${zoom}}</style>`,
});
const phone = (number: string, tel: string): EditOp[] => [
  replace('+44 20 7946 0958', number),
  { op: 'setAttribute', selector: 'a[href^="tel:"]', name: 'href', value: tel },
];
const email = (address: string): EditOp[] => [
  replace('hello@startbootstrap.com', address),
  {
    op: 'setAttribute',
    selector: 'a[href^="mailto:hello@startbootstrap.com" i]',
    name: 'href',
    value: `mailto:${address}`,
  },
];
const SITE_NAME = 'Start Bootstrap';
const hide = (selector: string, withText?: string): EditOp =>
  withText === undefined
    ? { op: 'hideElement', selector }
    : { op: 'hideElement', selector, withText };
const remove = (selector: string, withText?: string): EditOp =>
  withText === undefined
    ? { op: 'removeElement', selector }
    : { op: 'removeElement', selector, withText };
const BANNER_STYLE =
  'padding:10px 16px;text-align:center;background:#111;color:#fff;font:14px/1.4 system-ui,sans-serif';

export const CORPUS: CorpusCase[] = [
  // The two messages of the report, exactly.
  {
    say: "Change 'Clean Blog' to 'Dana Journal' and make the main colour crimson",
    ops: [replace('Clean Blog', 'Dana Journal'), primary('crimson')],
    says: [
      'Replace "Clean Blog" with "Dana Journal" everywhere',
      'Set the main colour to crimson (#dc143c)',
    ],
  },
  {
    say: "Change the title 'Clean Blog' to 'Dana's Journal' and make the main colour crimson (#dc143c).",
    ops: [replace('Clean Blog', "Dana's Journal"), primary('#dc143c')],
    says: [
      'Replace "Clean Blog" with "Dana\'s Journal" everywhere',
      'Set the main colour to #dc143c (crimson)',
    ],
  },

  // Quotes are optional, of any kind; apostrophes inside words are not quotes.
  { say: 'change Clean Blog to Dana Journal', ops: [replace('Clean Blog', 'Dana Journal')] },
  {
    say: 'Change “Clean Blog” to “Dana’s Journal”',
    ops: [replace('Clean Blog', 'Dana’s Journal')],
  },
  {
    say: 'change ‘Clean Blog’ to ‘Dana’s Journal’',
    ops: [replace('Clean Blog', 'Dana’s Journal')],
  },
  { say: 'Replace «Clean Blog» with «Dana Journal»', ops: [replace('Clean Blog', 'Dana Journal')] },
  {
    say: 'rename "Tom and Jerry" to "Ben and Holly"',
    ops: [replace('Tom and Jerry', 'Ben and Holly')],
  },
  {
    say: 'replace Tom and Jerry with Ben and Holly',
    ops: [replace('Tom and Jerry', 'Ben and Holly')],
  },
  { say: "change Clean Blog to Dana's Journal.", ops: [replace('Clean Blog', "Dana's Journal")] },
  { say: 'CHANGE clean blog TO Dana Journal', ops: [replace('Clean Blog', 'Dana Journal')] },
  {
    say: 'change the blog name from Clean Blog to Dana Journal',
    ops: [replace('Clean Blog', 'Dana Journal')],
  },
  { say: 'Swap Start Bootstrap for Dana Lee', ops: [replace('Start Bootstrap', 'Dana Lee')] },
  { say: 'Start Bootstrap -> Dana Lee', ops: [replace('Start Bootstrap', 'Dana Lee')] },
  {
    say: 'replace "Posted by" with "Written by" everywhere',
    ops: [replace('Posted by', 'Written by')],
  },
  {
    say: 'Replace "start bootstrap" with "Dana" (ignoring case)',
    ops: [{ ...replace('Start Bootstrap', 'Dana'), caseSensitive: false }],
  },

  // Several instructions in one message.
  {
    say: 'Change Clean Blog to Dana Journal, make the main colour crimson, and hide the footer.',
    ops: [replace('Clean Blog', 'Dana Journal'), primary('crimson'), hide('footer')],
  },
  {
    say: 'change the heading to Fish and Chips and make the background white',
    ops: [heading('Fish and Chips'), background('white')],
  },
  {
    say: 'Use Georgia then hide the cookie banner',
    ops: [font('Georgia'), hide('div.cookie-banner')],
  },
  {
    say: 'Replace Start Bootstrap with Dana Lee; remove the newsletter popup',
    ops: [replace('Start Bootstrap', 'Dana Lee'), remove('#newsletter-popup')],
  },
  { say: 'change the tagline to Read, write and share', ops: [tagline('Read, write and share')] },
  {
    say: "Change the title to Dana's Journal\nMake the accent colour gold\n\nRemove the footer",
    ops: [{ op: 'setTitle', title: "Dana's Journal" }, accent('gold'), remove('footer')],
  },
  {
    say: "1. Change the site name to Dana's Journal\n2. Use the Inter font\n3. Dark mode please",
    ops: [replace(SITE_NAME, "Dana's Journal"), font('Inter'), ...DARK],
  },
  {
    say: '- hide the cookie banner\n- remove the newsletter popup',
    ops: [hide('div.cookie-banner'), remove('#newsletter-popup')],
  },
  {
    say: 'Change the address to 12 High Street, Bath BA1 1AA and make the background white',
    ops: [
      { op: 'setText', selector: 'address', text: '12 High Street, Bath BA1 1AA' },
      background('white'),
    ],
  },
  {
    say: 'Hide the footer and the cookie banner',
    ops: [hide('footer'), hide('div.cookie-banner')],
  },
  {
    say: "Change the heading font to 'Playfair Display' and the body font to Lora",
    ops: [font('Playfair Display', 'headings'), font('Lora', 'body')],
  },
  {
    say: 'Make the background black, the text white and the links gold.',
    ops: [background('black'), textColor('white'), primary('gold')],
  },
  {
    say: "Rename the blog to Dana's Journal. Also, use Merriweather for the headings!",
    ops: [replace(SITE_NAME, "Dana's Journal"), font('Merriweather', 'headings')],
  },
  {
    say: 'make the main colour crimson and then remove the banner',
    ops: [primary('crimson'), remove('header')],
  },

  // Polite filler and punctuation.
  { say: 'Please change the main colour to crimson.', ops: [primary('crimson')] },
  { say: 'Can you make the main color crimson?', ops: [primary('crimson')] },
  {
    say: 'Could you please use Georgia for the headings? Thanks!',
    ops: [font('Georgia', 'headings')],
  },
  { say: "I'd like the background to be white", ops: [background('white')] },
  {
    say: "Hi! Can you change the title to Dana's Journal please",
    ops: [{ op: 'setTitle', title: "Dana's Journal" }],
  },
  { say: 'would you mind hiding the footer', ops: [hide('footer')] },
  { say: 'I want you to remove the banner', ops: [remove('header')] },
  { say: "let's use a dark theme", ops: DARK },
  {
    say: 'kindly update the phone number to +1 555 0100',
    ops: phone('+1 555 0100', 'tel:+15550100'),
  },
  { say: 'hide the cookie banner pls!!', ops: [hide('div.cookie-banner')] },
  { say: 'Just make the accent colour gold, thank you :)', ops: [accent('gold')] },
  { say: 'ok so remove the newsletter popup', ops: [remove('#newsletter-popup')] },
  { say: 'Thanks!', ops: [] },

  // Colours.
  {
    say: 'make the main colour crimson',
    ops: [primary('crimson')],
    says: ['Set the main colour to crimson (#dc143c)'],
  },
  { say: 'set the primary color to #dc143c', ops: [primary('#dc143c')] },
  { say: 'brand colour: dc143c', ops: [primary('#dc143c')] },
  { say: 'change the theme colour to rgb(220, 20, 60)', ops: [primary('rgb(220, 20, 60)')] },
  {
    say: 'make the accent crimson',
    ops: [accent('crimson')],
    says: ['Set the accent colour to crimson (#dc143c)'],
  },
  { say: 'Accent colour should be gold', ops: [accent('gold')] },
  { say: 'change the background colour to #fafafa', ops: [background('#fafafa')] },
  {
    say: 'make the background off-white',
    ops: [background('#faf9f6')],
    says: ['Set the background colour to #faf9f6 (off-white)'],
  },
  { say: 'set the text colour to dark grey', ops: [textColor('darkgrey')] },
  { say: 'make the links crimson', ops: [primary('crimson')] },
  { say: 'change the link colour to navy', ops: [primary('navy')] },
  { say: 'Turn the background black', ops: [background('black')] },
  { say: 'use crimson as the main colour', ops: [primary('crimson')] },
  { say: 'I want teal as the brand colour', ops: [primary('teal')] },
  {
    say: 'replace the blue with crimson',
    ops: [{ op: 'changeColor', from: 'blue', to: 'crimson' }],
  },
  {
    say: 'change #0085a1 to #dc143c',
    ops: [{ op: 'changeColor', from: '#0085a1', to: '#dc143c' }],
    says: ['Change the colour #0085a1 to #dc143c (crimson) everywhere'],
  },
  { say: 'change the colour of the text to black', ops: [textColor('black')] },
  { say: 'make everything burgundy', ops: [primary('#800020')] },
  { say: 'change the main colour from teal to crimson', ops: [primary('crimson')] },
  { say: 'Main colour = #DC143C', ops: [primary('#DC143C')] },
  { say: 'make the primary colour crimson red', ops: [primary('crimson')] },
  {
    say: 'make the main colour crimson-ish',
    rejected: [['make the main colour crimson-ish', 'Set the main colour to crimson']],
  },
  {
    say: 'make the logo crimson-ish',
    rejected: [['make the logo crimson-ish', 'Set the main colour to crimson']],
  },
  {
    say: 'make the buttons a nicer blue',
    rejected: [['make the buttons a nicer blue', 'Set the main colour to blue']],
  },
  {
    say: 'Change the colour of the header to navy',
    rejected: [['Change the colour of the header to navy', 'Set the main colour to navy']],
  },
  {
    say: 'make the background a bit darker',
    rejected: [['make the background a bit darker', 'Use dark mode']],
  },

  // Whole-site looks.
  {
    say: 'dark mode',
    ops: DARK,
    says: ['Set the background colour to #121212', 'Set the text colour to #eeeeee'],
  },
  { say: 'make it dark', ops: DARK },
  { say: 'switch to dark mode please', ops: DARK },
  { say: 'Make the site light', ops: LIGHT },
  { say: 'Can we have a light theme?', ops: LIGHT },

  // Fonts.
  {
    say: 'use Georgia',
    ops: [font('Georgia')],
    says: ['Use the font Georgia for all text'],
  },
  { say: 'change the font to Inter', ops: [font('Inter')] },
  { say: 'change the typeface to playfair display', ops: [font('Playfair Display')] },
  {
    say: 'set the heading font to Montserrat',
    ops: [font('Montserrat', 'headings')],
    says: ['Use the font Montserrat for the headings'],
  },
  { say: 'use Roboto for the body text', ops: [font('Roboto', 'body')] },
  { say: 'make the headings Playfair Display', ops: [font('Playfair Display', 'headings')] },
  { say: 'Font: Lato', ops: [font('Lato')] },
  { say: 'switch to Open Sans', ops: [font('Open Sans')] },
  { say: 'use a serif font', ops: [font('serif')] },
  { say: 'Headings in Playfair Display please', ops: [font('Playfair Display', 'headings')] },
  {
    say: 'change the font to something more modern',
    rejected: [['change the font to something more modern', 'Change the font to Inter']],
  },

  // Sizes.
  {
    say: 'make the headings bigger',
    ops: [size('headings', 1.2)],
    says: ['Make the headings bigger'],
  },
  { say: 'make the text a bit larger', ops: [size('text', 1.05)] },
  { say: 'Increase the heading size', ops: [size('headings', 1.2)] },
  { say: 'make the headings smaller', ops: [size('headings', 0.9)] },
  {
    say: 'make the logo bigger',
    rejected: [['make the logo bigger', 'Make the text bigger']],
  },

  // The logo.
  {
    say: 'replace the logo with https://cdn.dana.blog/logo.png',
    ops: [{ op: 'replaceImage', logo: true, src: 'https://cdn.dana.blog/logo.png' }],
    says: ['Replace the logo with https://cdn.dana.blog/logo.png'],
  },
  {
    say: "change the logo text to Dana's Journal",
    ops: [{ op: 'setText', selector: 'a.navbar-brand', text: "Dana's Journal" }],
    says: ['Change the logo text to "Dana\'s Journal"'],
  },
  {
    say: "make the logo say Dana's Journal",
    ops: [{ op: 'setText', selector: 'a.navbar-brand', text: "Dana's Journal" }],
  },
  {
    say: "change the logo to Dana's Journal",
    ops: [{ op: 'setText', selector: 'a.navbar-brand', text: "Dana's Journal" }],
  },
  {
    say: 'use https://cdn.dana.blog/logo.svg as the logo',
    ops: [{ op: 'replaceImage', logo: true, src: 'https://cdn.dana.blog/logo.svg' }],
  },
  {
    say: 'change the logo text to Globex',
    page: 'acme',
    rejected: [
      ['change the logo text to Globex', 'Replace the logo with https://example.com/logo.png'],
    ],
  },
  {
    say: 'update our logo',
    rejected: [['update our logo', 'Replace the logo with https://example.com/logo.png']],
  },

  // Buttons.
  {
    say: 'change the button text to Sign up',
    ops: [button('Older Posts →', 'Sign up')],
    says: ['Change the "Older Posts →" button to say "Sign up"'],
  },
  {
    say: 'make the Subscribe button say Join',
    ops: [button('Subscribe', 'Join')],
    says: ['Change the "Subscribe" button to say "Join"'],
  },
  { say: 'Change the Subscribe button to Join now', ops: [button('Subscribe', 'Join now')] },
  { say: 'rename the subscribe button to Join', ops: [button('Subscribe', 'Join')] },
  { say: 'The Subscribe button should say Join', ops: [button('Subscribe', 'Join')] },
  {
    say: "change the 'Older Posts' button to 'More posts'",
    ops: [button('Older Posts →', 'More posts')],
  },
  {
    say: 'make the Sign me up button go to /join',
    ops: [
      {
        op: 'setAttribute',
        selector: 'a, button',
        withText: 'Sign me up',
        name: 'href',
        value: '/join',
      },
    ],
    says: ['Make the "Sign me up" button go to /join'],
  },
  {
    say: 'change the text on the main button to Start reading',
    ops: [button('Older Posts →', 'Start reading')],
  },
  {
    say: 'Change the button that says Accept to Got it',
    ops: [button('Accept', 'Got it')],
  },
  {
    say: 'change the button text to Sign up',
    page: 'none',
    rejected: [
      ['change the button text to Sign up', 'Change the "Subscribe" button to say "Join now"'],
    ],
  },
  {
    say: 'change the button text to Get started',
    page: 'acme',
    ops: [button('Sign up', 'Get started')],
  },

  // Contact details.
  {
    say: 'change the phone number to +1 555 0100',
    ops: phone('+1 555 0100', 'tel:+15550100'),
    says: [
      'Replace "+44 20 7946 0958" with "+1 555 0100" everywhere',
      'Make the phone number links call +15550100',
    ],
  },
  {
    say: 'Our phone number is now 020 7946 0000',
    ops: phone('020 7946 0000', 'tel:02079460000'),
  },
  {
    say: 'new phone number: (555) 010-0199',
    ops: phone('(555) 010-0199', 'tel:5550100199'),
  },
  {
    say: 'Change the telephone number to 0800 123 456',
    ops: phone('0800 123 456', 'tel:0800123456'),
  },
  {
    say: 'change the phone number to +1 555 0100',
    page: 'none',
    rejected: [
      ['change the phone number to +1 555 0100', 'Replace "current number" with "+1 555 0100"'],
    ],
  },
  {
    say: 'change the phone number to +1 555 0100',
    page: 'acme',
    rejected: [
      ['change the phone number to +1 555 0100', 'Replace "current number" with "+1 555 0100"'],
    ],
  },
  {
    say: 'change the phone number to call me maybe',
    rejected: [
      ['change the phone number to call me maybe', 'Change the phone number to +1 555 0100'],
    ],
  },
  {
    say: 'change the email address to dana@danasjournal.com',
    ops: email('dana@danasjournal.com'),
    says: [
      'Replace "hello@startbootstrap.com" with "dana@danasjournal.com" everywhere',
      'Make the e-mail links write to dana@danasjournal.com',
    ],
  },
  { say: 'update the contact email to dana@danasjournal.com', ops: email('dana@danasjournal.com') },
  { say: 'E-mail: dana@danasjournal.com', ops: email('dana@danasjournal.com') },
  {
    say: 'change the address to 221B Baker Street, London NW1 6XE',
    ops: [{ op: 'setText', selector: 'address', text: '221B Baker Street, London NW1 6XE' }],
    says: ['Change the address to "221B Baker Street, London NW1 6XE"'],
  },
  {
    say: 'Our address has changed to 10 Downing Street, London SW1A 2AA',
    ops: [{ op: 'setText', selector: 'address', text: '10 Downing Street, London SW1A 2AA' }],
  },

  // Title, site name, tagline, heading, description.
  {
    say: "change the title to Dana's Journal",
    ops: [{ op: 'setTitle', title: "Dana's Journal" }],
    says: ['Set the page title to "Dana\'s Journal"'],
  },
  {
    say: "Set the page title to Dana's Journal – notes from the road",
    ops: [{ op: 'setTitle', title: "Dana's Journal – notes from the road" }],
  },
  {
    say: "change the site name to Dana's Journal",
    ops: [replace(SITE_NAME, "Dana's Journal")],
    says: ['Replace "Start Bootstrap" with "Dana\'s Journal" everywhere'],
  },
  { say: "Rename the blog to Dana's Journal", ops: [replace(SITE_NAME, "Dana's Journal")] },
  { say: "brand name: Dana's Journal", ops: [replace(SITE_NAME, "Dana's Journal")] },
  { say: 'The site should be called Dana’s Journal', ops: [replace(SITE_NAME, 'Dana’s Journal')] },
  {
    say: 'change the tagline to Notes from the road',
    ops: [tagline('Notes from the road')],
    says: ['Change the tagline to "Notes from the road" on the home page'],
  },
  { say: 'change the subtitle to Notes from the road', ops: [tagline('Notes from the road')] },
  {
    say: 'Set the meta description to Travel notes by Dana',
    ops: [{ op: 'setDescription', description: 'Travel notes by Dana' }],
  },
  {
    say: 'change the description to Stories, photos and notes from the road.',
    ops: [{ op: 'setDescription', description: 'Stories, photos and notes from the road' }],
  },
  {
    say: "change the main heading to Hello, I'm Dana",
    ops: [heading("Hello, I'm Dana")],
    says: ['Change the main heading to "Hello, I\'m Dana" on the home page'],
  },
  {
    say: "make the heading say Welcome to Dana's Journal",
    ops: [heading("Welcome to Dana's Journal")],
  },
  {
    say: "change the heading 'Welcome to Acme' to 'Welcome to Globex'",
    page: 'acme',
    ops: [replace('Welcome to Acme', 'Welcome to Globex')],
  },
  {
    say: "change the site name to Dana's Journal",
    page: 'none',
    ops: [{ op: 'setTitle', title: "Dana's Journal" }],
  },

  // Where a form's mails go (issue 34, item 6).
  {
    say: 'send the contact form to sales@example.com',
    ops: [{ op: 'setFormRecipient', email: 'sales@example.com' }],
    says: [
      `Contact form submissions go to "sales@example.com" instead of your account's address, once that address confirms it wants them`,
    ],
  },
  {
    say: 'Contact form emails should go to sales@example.com.',
    ops: [{ op: 'setFormRecipient', email: 'sales@example.com' }],
  },
  {
    say: 'forward all form submissions to ops@acme.co and hide the footer',
    ops: [{ op: 'setFormRecipient', email: 'ops@acme.co', form: 'all' }, hide('footer')],
  },
  {
    say: 'send the contact form to the sales team',
    rejected: [
      ['send the contact form to the sales team', 'Send the contact form to sales@example.com'],
    ],
  },

  // Removing and hiding.
  {
    say: 'remove the banner',
    ops: [remove('header')],
    says: ['Remove the header'],
  },
  {
    say: 'hide the cookie banner',
    ops: [hide('div.cookie-banner')],
    says: ['Hide the cookie banner'],
  },
  {
    say: 'remove the newsletter popup',
    ops: [remove('#newsletter-popup')],
    says: ['Remove the newsletter popup'],
  },
  { say: 'remove the footer', ops: [remove('footer')], says: ['Remove the footer'] },
  { say: 'hide section Join the newsletter', ops: [hide('#newsletter')] },
  {
    say: 'hide the newsletter section',
    ops: [hide('#newsletter')],
    says: ['Hide the newsletter section'],
  },
  { say: 'get rid of the cookie notice', ops: [remove('div.cookie-banner')] },
  { say: "Please don't show the popup", ops: [hide('#newsletter-popup')] },
  { say: 'disable the cookie banner', ops: [hide('div.cookie-banner')] },
  { say: 'no cookie banner please', ops: [remove('div.cookie-banner')] },
  { say: 'remove the menu', ops: [remove('#mainNav')], says: ['Remove the main nav'] },
  {
    say: 'hide the footer on the about page',
    ops: [{ op: 'hideElement', selector: 'footer', pages: ['/about*'] }],
    says: ['Hide the footer on the about pages'],
  },
  {
    say: "remove the text 'Posted by'",
    ops: [replace('Posted by', '')],
    says: ['Remove the text "Posted by" everywhere'],
  },
  { say: "remove 'Start Bootstrap'", ops: [replace('Start Bootstrap', '')] },
  {
    say: 'hide the Subscribe button',
    ops: [hide('a, button', 'Subscribe')],
    says: ['Hide the "Subscribe" button'],
  },
  // A landmark may be on other pages than the one looked at: kept, and reported if it matches nothing.
  { say: 'remove the sidebar', ops: [remove('aside')], says: ['Remove the sidebar'] },
  {
    say: 'remove the testimonials',
    rejected: [['remove the testimonials', 'Remove the footer']],
  },
  {
    say: 'remove the newsleter section',
    rejected: [['remove the newsleter section', 'Remove the newsletter section']],
  },
  {
    say: 'remove the section called Join the newsletter',
    ops: [remove('#newsletter')],
  },

  // Links.
  {
    say: "change the link 'Contact' to /contact-me",
    ops: [
      {
        op: 'setAttribute',
        selector: 'a',
        withText: 'Contact',
        name: 'href',
        value: '/contact-me',
      },
    ],
    says: ['Make the "Contact" link go to /contact-me'],
  },
  {
    say: 'make the About link go to /about-dana',
    ops: [
      { op: 'setAttribute', selector: 'a', withText: 'About', name: 'href', value: '/about-dana' },
    ],
  },
  {
    say: 'rename the menu item Sample Post to Stories',
    ops: [{ op: 'setText', selector: 'a', withText: 'Sample Post', text: 'Stories' }],
    says: ['Change the text of the "Sample Post" link to "Stories"'],
  },

  // Adding.
  {
    say: 'add a banner saying Free shipping this week',
    ops: [
      {
        op: 'insertHtml',
        selector: 'body',
        position: 'prepend',
        html: `<div class="mirror-banner" style="${BANNER_STYLE}">Free shipping this week</div>`,
      },
    ],
    says: ['Add a banner saying "Free shipping this week" at the top of every page'],
  },
  {
    say: "add 'Follow me on Instagram' at the end of the footer",
    ops: [
      {
        op: 'insertHtml',
        selector: 'footer',
        position: 'append',
        html: '<p>Follow me on Instagram</p>',
      },
    ],
    says: ['Add the text "Follow me on Instagram" at the end of the footer'],
  },

  // Not understood: the part, verbatim, and the closest phrasing.
  {
    say: "chnage the titel to Dana's Journal",
    rejected: [["chnage the titel to Dana's Journal", "Change the title to Dana's Journal"]],
  },
  {
    say: 'make the backround white',
    rejected: [['make the backround white', 'Make the background white']],
  },
  // A wish about the whole look: the nearest looks the engine can set (issue 31, item 5).
  {
    say: 'make it pop',
    rejected: [['make it pop', 'Set the main colour to crimson']],
    alternatives: ['Make the headings bigger', 'Set the accent colour to gold'],
  },
  {
    say: 'make it pop more',
    rejected: [['make it pop more', 'Set the main colour to crimson']],
    alternatives: ['Make the headings bigger', 'Set the accent colour to gold'],
  },
  {
    say: 'use a warmer palette',
    rejected: [['use a warmer palette', 'Set the main colour to coral']],
    alternatives: ['Set the background colour to ivory'],
  },
  {
    say: 'make the colours warmer',
    rejected: [['make the colours warmer', 'Set the main colour to coral']],
    alternatives: ['Set the background colour to ivory'],
  },
  {
    say: 'make it look more elegant',
    rejected: [['make it look more elegant', 'Change the font to Playfair Display']],
    alternatives: ['Set the main colour to black'],
  },
  {
    say: 'make it easier to read',
    rejected: [['make it easier to read', 'Make the text bigger']],
    alternatives: ['Make the headings bigger'],
  },
  {
    say: 'make the tagline friendlier',
    rejected: [['make the tagline friendlier', 'Change the tagline to "Your new tagline"']],
  },
  {
    say: 'translate the site to French',
    rejected: [['translate the site to French', 'Replace "old text" with "new text"']],
  },
  {
    say: 'make the footer blue',
    rejected: [['make the footer blue', 'Set the main colour to blue']],
  },
  {
    say: 'make the background dark',
    rejected: [['make the background dark', 'Use dark mode']],
  },
  {
    say: 'Change the main colour to crimson and make it pop',
    ops: [primary('crimson')],
    rejected: [['make it pop', 'Set the main colour to crimson']],
  },
  {
    say: 'Make it pop and sprinkle some magic. Remove the footer',
    ops: [remove('footer')],
    rejected: [['Make it pop and sprinkle some magic.', 'Set the main colour to crimson']],
  },
  {
    say: 'remove the cookie banner',
    page: 'acme',
    rejected: [['remove the cookie banner', 'Remove the footer']],
  },

  // No page to look at: generic targets where they are safe.
  {
    say: 'remove the newsletter section',
    page: 'none',
    ops: [remove('[id*="newsletter" i], [class*="newsletter" i]')],
    says: ['Remove the newsletter section'],
  },
  {
    say: 'change the heading to Hello',
    page: 'none',
    ops: [heading('Hello')],
    says: ['Change the main heading to "Hello" on the home page'],
  },
  {
    say: 'make the Subscribe button say Join',
    page: 'none',
    ops: [button('Subscribe', 'Join')],
  },
  {
    say: 'change the tagline to Ship today',
    page: 'none',
    ops: [{ op: 'setText', selector: 'h1 + p', text: 'Ship today', pages: ['/'] }],
    says: ['Change the tagline to "Ship today" on the home page'],
  },

  // More messages as owners write them.
  {
    say: "Can you change the name of the blog to Dana's Journal?",
    ops: [replace(SITE_NAME, "Dana's Journal")],
  },
  {
    say: 'please make the primary colour #DC143C and the font Georgia',
    ops: [primary('#DC143C'), font('Georgia')],
  },
  { say: "I'd like the main color to be crimson", ops: [primary('crimson')] },
  { say: 'use crimson for the main colour', ops: [primary('crimson')] },
  { say: 'change the header text to Welcome', ops: [heading('Welcome')] },
  { say: "Set the h1 to Dana's Journal", ops: [heading("Dana's Journal")] },
  {
    say: 'update the footer text to © 2024 Dana Lee',
    ops: [{ op: 'setText', selector: 'div.small', text: '© 2024 Dana Lee' }],
    says: ['Change the text "Copyright © Start Bootstrap 2023" to "© 2024 Dana Lee"'],
  },
  {
    say: 'change the copyright to © 2024 Dana Lee',
    ops: [{ op: 'setText', selector: 'div.small', text: '© 2024 Dana Lee' }],
  },
  {
    say: 'Change the year in the footer to 2024',
    ops: [{ op: 'setText', selector: 'div.small', text: 'Copyright © Start Bootstrap 2024' }],
  },
  { say: 'hide the subscribe form', ops: [hide('#newsletter')] },
  { say: 'get rid of the sign up popup', ops: [remove('#newsletter-popup')] },
  {
    say: 'Remove the popup and the cookie banner please',
    ops: [remove('#newsletter-popup'), remove('div.cookie-banner')],
  },
  { say: 'make the title font bigger', ops: [size('headings', 1.2)] },
  { say: 'the main colour is crimson', ops: [primary('crimson')] },
  { say: 'colour: crimson', ops: [primary('crimson')] },
  { say: 'Change the background to a light grey', ops: [background('lightgrey')] },
  { say: 'change all fonts to Inter', ops: [font('Inter')] },
  { say: 'use Inter for everything', ops: [font('Inter')] },
  { say: 'Change the font of the whole site to Lato', ops: [font('Lato')] },
  {
    say: 'replace the phone number with +1 555 0100',
    ops: phone('+1 555 0100', 'tel:+15550100'),
  },
  { say: 'Change the phone to 555-0100', ops: phone('555-0100', 'tel:5550100') },
  { say: 'my new email is dana@danasjournal.com', ops: email('dana@danasjournal.com') },
  { say: 'Contact email should be dana@danasjournal.com', ops: email('dana@danasjournal.com') },
  {
    say: 'please change the address to PO Box 12, Springfield',
    ops: [{ op: 'setText', selector: 'address', text: 'PO Box 12, Springfield' }],
  },
  {
    say: 'change the heading on the home page to Hello',
    ops: [heading('Hello')],
  },
  {
    say: "Rename 'Sample Post' to 'Stories' in the menu",
    ops: [{ op: 'setText', selector: 'a', withText: 'Sample Post', text: 'Stories' }],
  },
  { say: 'Change the color scheme to dark', ops: DARK },
  {
    say: "I don't like the footer, remove it",
    ops: [remove('footer')],
    rejected: [["I don't like the footer", 'Replace "old text" with "new text"']],
  },
  {
    say: "Replace Start Bootstrap with Dana Lee everywhere and Clean Blog with Dana's Journal",
    ops: [replace('Start Bootstrap', 'Dana Lee'), replace('Clean Blog', "Dana's Journal")],
  },
  {
    say: 'make the main colour #dc143c, the accent gold and the background #fffaf0',
    ops: [primary('#dc143c'), accent('gold'), background('#fffaf0')],
  },
  {
    say: "Change the title to: Dana's Journal",
    ops: [{ op: 'setTitle', title: "Dana's Journal" }],
  },
  { say: "Title - Dana's Journal", ops: [{ op: 'setTitle', title: "Dana's Journal" }] },
  { say: 'can the headings be in Georgia?', ops: [font('Georgia', 'headings')] },
  {
    say: 'Put my phone number +1 555 0100 instead of the old one',
    rejected: [
      [
        'Put my phone number +1 555 0100 instead of the old one',
        'Change the phone number to +1 555 0100',
      ],
    ],
  },
  {
    say: "Hey there! I just cloned my blog. Could you rename it to Dana's Journal, switch the colours to crimson and use Lora everywhere? Cheers",
    ops: [replace(SITE_NAME, "Dana's Journal"), primary('crimson'), font('Lora')],
  },
  {
    say: 'change the heading to "Dana’s Journal" and the tagline to "Notes from the road"',
    ops: [heading('Dana’s Journal'), tagline('Notes from the road')],
  },
  {
    say: 'Please replace every mention of Start Bootstrap with Dana Lee',
    ops: [replace('Start Bootstrap', 'Dana Lee')],
  },
  {
    say: 'Make the background #1a1a1a and the text #f5f5f5',
    ops: [background('#1a1a1a'), textColor('#f5f5f5')],
  },
  { say: 'remove the cookie consent', ops: [remove('div.cookie-banner')] },
  { say: 'hide the "Join the newsletter" section', ops: [hide('#newsletter')] },
  {
    say: 'Change the text "Older Posts →" to "More posts"',
    ops: [replace('Older Posts →', 'More posts')],
  },
  { say: 'change the font to Comic Sans', ops: [font('Comic Sans MS')] },
  { say: 'make the headline Welcome!', ops: [heading('Welcome')] },
  {
    say: 'set the heading to Welcome to my blog, friends',
    ops: [heading('Welcome to my blog, friends')],
  },
  {
    say: "Change 'Clean Blog' to 'Dana Journal' and change 'Start Bootstrap' to 'Dana'",
    ops: [replace('Clean Blog', 'Dana Journal'), replace('Start Bootstrap', 'Dana')],
  },
  {
    say: 'make the colour scheme blue and white',
    rejected: [['make the colour scheme blue and white', 'Set the main colour to blue']],
  },
  {
    say: 'change the email to dana at gmail dot com',
    rejected: [
      [
        'change the email to dana at gmail dot com',
        'Change the email address to hello@example.com',
      ],
    ],
  },
  {
    say: 'hide the menu on mobile',
    rejected: [['hide the menu on mobile', 'Hide the main nav']],
  },
  { say: 'Change all the links to crimson', ops: [primary('crimson')] },
  { say: 'remove the "Older Posts" button', ops: [remove('a, button', 'Older Posts →')] },
  {
    say: 'change the link Contact to https://dana.blog/contact',
    ops: [
      {
        op: 'setAttribute',
        selector: 'a',
        withText: 'Contact',
        name: 'href',
        value: 'https://dana.blog/contact',
      },
    ],
  },
  {
    say: 'Change the colour #0085A1 to crimson everywhere',
    ops: [{ op: 'changeColor', from: '#0085A1', to: 'crimson' }],
  },
  { say: 'make the theme darker', rejected: [['make the theme darker', 'Use dark mode']] },
  {
    say: 'swap the fonts: headings in Lora, body in Inter',
    ops: [font('Lora', 'headings'), font('Inter', 'body')],
  },
  {
    say: 'Change “Clean Blog” to “Dana’s Journal”; then make the main color #DC143C.',
    ops: [replace('Clean Blog', 'Dana’s Journal'), primary('#DC143C')],
  },
  {
    say: "update my site title to Dana's Journal | Travel blog",
    ops: [{ op: 'setTitle', title: "Dana's Journal | Travel blog" }],
  },
  {
    say: 'change "Posted by" to "Written by", "Older Posts" to "More posts" and "Sample Post" to "Stories"',
    ops: [
      replace('Posted by', 'Written by'),
      replace('Older Posts', 'More posts'),
      replace('Sample Post', 'Stories'),
    ],
  },
  {
    say: 'Set the title to "Dana\'s Journal". Set the description to "Notes, photos, and stories from the road." Use the Lora font.',
    ops: [
      { op: 'setTitle', title: "Dana's Journal" },
      { op: 'setDescription', description: 'Notes, photos, and stories from the road.' },
      font('Lora'),
    ],
  },
  { say: 'please please please make it crimson', ops: [primary('crimson')] },
  {
    say: 'change the heading to Welcome and then the tagline to Notes from the road',
    ops: [heading('Welcome'), tagline('Notes from the road')],
  },
  {
    say: 'Hide the footer, the cookie banner and the newsletter popup',
    ops: [hide('footer'), hide('div.cookie-banner'), hide('#newsletter-popup')],
  },
  { say: 'hide footer', ops: [hide('footer')] },
  { say: 'Remove Newsletter', ops: [remove('#newsletter')] },
  { say: 'Use the colour #ff6600 for buttons', ops: [primary('#ff6600')] },
  { say: 'I want the buttons orange', ops: [primary('orange')] },
  { say: 'orange buttons please', ops: [primary('orange')] },
  { say: 'Replace 2023 with 2024', ops: [replace('2023', '2024')] },
  {
    say: "change 'September 24, 2023' to 'May 1, 2024'",
    ops: [replace('September 24, 2023', 'May 1, 2024')],
  },
  {
    say: 'change the link https://twitter.com/startbootstrap to https://twitter.com/dana',
    ops: [
      {
        op: 'setAttribute',
        selector: 'a[href="https://twitter.com/startbootstrap"]',
        name: 'href',
        value: 'https://twitter.com/dana',
      },
    ],
  },
  {
    say: 'replace the background picture with https://cdn.dana.blog/bg.jpg',
    rejected: [
      [
        'replace the background picture with https://cdn.dana.blog/bg.jpg',
        'Change the hero image to https://cdn.dana.blog/bg.jpg',
      ],
    ],
  },
  {
    say: 'add my Instagram link to the footer',
    rejected: [['add my Instagram link to the footer', 'Add "Your text" at the end of the footer']],
  },
  {
    say: 'Make the buttons rounded',
    rejected: [['Make the buttons rounded', null]],
  },
  {
    say: 'hide the posts',
    rejected: [['hide the posts', 'Hide the footer']],
  },

  { say: "don't change the footer", ops: [] },
  {
    say: 'keep the logo but change the colours to crimson',
    ops: [primary('crimson')],
  },
  {
    say: 'Change the heading to red',
    rejected: [['Change the heading to red', 'Set the main colour to red']],
  },
  {
    say: 'Change the About link to About me',
    ops: [{ op: 'setText', selector: 'a', withText: 'About', text: 'About me' }],
  },
  {
    say: 'change the red to blue',
    ops: [{ op: 'changeColor', from: 'red', to: 'blue' }],
  },
  { say: 'change Red Hat to Blue Hat', ops: [replace('Red Hat', 'Blue Hat')] },
  {
    say: 'make the text black and bold',
    ops: [textColor('black')],
    rejected: [['bold', null]],
  },
  {
    say: 'change the title to Rock and Roll and change the tagline to Live fast',
    ops: [{ op: 'setTitle', title: 'Rock and Roll' }, tagline('Live fast')],
  },
  { say: 'replace "and" with "&"', ops: [replace('and', '&')] },
  {
    say: "change 'Man must explore' to 'We explore' on the home page only",
    ops: [{ ...replace('Man must explore', 'We explore'), pages: ['/'] }],
    says: ['Replace "Man must explore" with "We explore" on the home page'],
  },
  {
    say: 'Could you swap the order of the sections?',
    rejected: [['Could you swap the order of the sections?', null]],
  },

  {
    say: 'change the heading to Hello and make it pop',
    ops: [heading('Hello')],
    rejected: [['make it pop', 'Set the main colour to crimson']],
  },
  { say: 'change the tagline to Learn, make and share', ops: [tagline('Learn, make and share')] },
  {
    say: 'Make the Contact link open in a new tab',
    ops: [
      { op: 'setAttribute', selector: 'a', withText: 'Contact', name: 'target', value: '_blank' },
    ],
    says: ['Open the "Contact" link in a new tab'],
  },
  {
    say: 'Change the logo to my name, Dana Lee',
    ops: [{ op: 'setText', selector: 'a.navbar-brand', text: 'Dana Lee' }],
    fails: '"my name," is taken as part of the new logo text',
  },
  {
    say: 'change the favicon',
    rejected: [['change the favicon', 'Replace "old text" with "new text"']],
  },

  // The Acme fixture page.
  { say: 'hide the hero', page: 'acme', ops: [hide('#hero')], says: ['Hide the hero section'] },
  { say: 'remove the banner', page: 'acme', ops: [remove('#hero')] },
  {
    say: 'replace the logo with https://cdn.globex.com/logo.svg and change Acme to Globex',
    page: 'acme',
    ops: [
      { op: 'replaceImage', logo: true, src: 'https://cdn.globex.com/logo.svg' },
      replace('Acme', 'Globex'),
    ],
  },
  {
    say: 'make the Sign up button say Join now',
    page: 'acme',
    ops: [button('Sign up', 'Join now')],
  },
  {
    say: 'Change Acme to Globex everywhere, including alt text',
    page: 'acme',
    ops: [{ ...replace('Acme', 'Globex'), includeAttributes: true }],
    says: ['Replace "Acme" with "Globex" everywhere (also in image descriptions and tooltips)'],
  },
  {
    say: 'change the main colour to #00aa77 and the accent to #ff8800',
    page: 'acme',
    ops: [primary('#00aa77'), accent('#ff8800')],
  },
  {
    say: 'remove the pricing link',
    page: 'acme',
    ops: [remove('a', 'Pricing')],
    says: ['Remove the "Pricing" link'],
  },
  {
    say: 'Change the Pricing link to /plans',
    page: 'acme',
    ops: [
      { op: 'setAttribute', selector: 'a', withText: 'Pricing', name: 'href', value: '/plans' },
    ],
  },
  {
    say: 'change the hero image to https://cdn.globex.com/team.jpg',
    page: 'acme',
    ops: [{ op: 'replaceImage', selector: '#hero', src: 'https://cdn.globex.com/team.jpg' }],
    says: ['Replace the picture in the hero section with https://cdn.globex.com/team.jpg'],
  },
  {
    say: 'make the features section say Why Globex',
    page: 'acme',
    ops: [{ op: 'setText', selector: 'section.features', text: 'Why Globex' }],
  },
  {
    say: 'change the tagline to Tools for everyone',
    page: 'acme',
    ops: [tagline('Tools for everyone')],
  },
];
