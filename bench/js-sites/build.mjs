#!/usr/bin/env node
// Builds the js-sites corpus: static sites made by real site generators from their starters' own
// content (or, where a generator ships no starter in its npm package, from the Markdown docs that
// fastify ships in its npm tarball, or Sphinx's own documentation sources from Debian's sphinx-doc).
//
//   node bench/js-sites/build.mjs [--only a,b] [--force] [--list]
//
// Everything lands outside the repository, in $MIRROR_JS_SITES_DIR or ~/.cache/mirror-js-sites:
//   <name>/src/         the generator's project (its own node_modules: no dependency of the repo)
//   <name>/site/        the built static output, what run.mjs serves and mirrors
//   <name>/build.json   generator, version, page count, when
//   <name>/build.log    the commands' output
// After the installs it needs no network. A site whose build.json exists is skipped (idempotent);
// --force rebuilds. Prints a table of what was built and what failed and why.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

export const CACHE =
  process.env.MIRROR_JS_SITES_DIR ?? path.join(os.homedir(), '.cache/mirror-js-sites');

// Pinned versions of every generator and content package.
const V = {
  docusaurus: '3.10.2',
  vitepress: '1.6.4',
  vuepress: '2.0.0-rc.28',
  vuepressPlugins: '2.0.0-rc.128',
  fumadocs: '16.2.2',
  sv: '0.17.1',
  adapterStatic: '3.0.11',
  astro: '5.18.2', // Astro 6+ and Angular 22 need Node 22; this machine has Node 20
  starlight: '0.37.7',
  hexo: '4.3.2',
  angular: '21.2.9',
  createVite: '9.3.0',
  storybook: '10.6.2',
  docsifyCli: '5.0.0',
  docsify: '5.0.0',
  eleventy: '3.1.8',
  cookieconsent: '3.1.0',
  fastify: '5.12.8',
  todomvc: '0.1.1',
};

const log = (s) => process.stdout.write(`${s}\n`);

class BuildError extends Error {}

/** Runs a command in `cwd`, appending its output to the site's log; throws with the tail. */
function sh(ctx, command, { cwd = ctx.src, timeout = 20 * 60_000, env = {} } = {}) {
  fs.appendFileSync(ctx.logFile, `\n$ (cd ${cwd}) ${command}\n`);
  const started = Date.now();
  const r = spawnSync('bash', ['-c', command], {
    cwd,
    timeout,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: {
      ...process.env,
      CI: '1',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      NEXT_TELEMETRY_DISABLED: '1',
      ASTRO_TELEMETRY_DISABLED: '1',
      STORYBOOK_DISABLE_TELEMETRY: '1',
      GATSBY_TELEMETRY_DISABLED: '1',
      NG_CLI_ANALYTICS: 'false',
      DEBIAN_FRONTEND: 'noninteractive',
      ...env,
    },
    input: '',
  });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  fs.appendFileSync(
    ctx.logFile,
    `${out}\n[exit ${r.status}${r.signal ? ` ${r.signal}` : ''}, ${((Date.now() - started) / 1000).toFixed(1)} s]\n`,
  );
  if (r.status !== 0) {
    const tail = out.trim().split('\n').filter(Boolean).slice(-4).join(' | ');
    throw new BuildError(
      `\`${command.slice(0, 80)}\` ${r.signal ? `killed (${r.signal})` : `exited ${r.status}`}: ${tail.slice(0, 300)}`,
    );
  }
  return out;
}

const write = (file, text) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};
const read = (file) => fs.readFileSync(file, 'utf8');
const edit = (file, from, to) => {
  const text = read(file);
  if (from instanceof RegExp ? !from.test(text) : !text.includes(from))
    throw new BuildError(`${path.basename(file)}: "${from}" not found`);
  fs.writeFileSync(file, text.replace(from, to));
};
const copyDir = (from, to) => fs.cpSync(from, to, { recursive: true, dereference: true });

function aptInstall(ctx, packages) {
  const missing = packages.filter(
    (p) =>
      spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' }).stdout !==
      'install ok installed',
  );
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0)
    throw new BuildError(`needs Debian packages: apt-get install ${missing.join(' ')}`);
  sh(
    ctx,
    `apt-get install -y --no-install-recommends ${missing.join(' ')} || (apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')})`,
    { cwd: CACHE },
  );
}

/** An npm package's tarball unpacked (no dependencies) into the cache's content folder. */
function unpacked(ctx, spec, name) {
  const dir = path.join(CACHE, '_content', name);
  if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
  fs.mkdirSync(path.join(CACHE, '_content'), { recursive: true });
  const tmp = fs.mkdtempSync(path.join(CACHE, '_content', '.pack-'));
  const file = sh(ctx, `npm pack ${spec} --silent`, { cwd: tmp }).trim().split('\n').pop();
  sh(ctx, `tar xzf ${file} && rm ${file}`, { cwd: tmp });
  fs.renameSync(path.join(tmp, 'package'), dir);
  fs.rmSync(tmp, { recursive: true });
  return dir;
}

// ---- fastify's docs: real Markdown content for generators without a starter in their tarball --

/**
 * fastify's docs (docs/**.md in its npm tarball, 41 pages): each file with its title (the first
 * `##`/`#` heading) and body (the centred "Fastify" banner dropped). `link(target, hash)` rewrites
 * relative `.md` links for generators that do not resolve them.
 */
function fastifyDocs(ctx) {
  const root = path.join(unpacked(ctx, `fastify@${V.fastify}`, 'fastify'), 'docs');
  const pages = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.md')) {
        const rel = path.relative(root, file);
        let body = read(file).replace(/^<h1 align="center">Fastify<\/h1>\s*/m, '');
        const heading = /^#{1,2} +(.+)$/m.exec(body);
        const title = (heading?.[1] ?? path.basename(rel, '.md')).replace(/[`*]/g, '').trim();
        if (heading) body = body.replace(heading[0], '').trimStart();
        pages.push({ rel, title, body });
      }
    }
  };
  walk(root);
  pages.sort((a, b) => a.rel.localeCompare(b.rel));
  return { root, pages };
}

/** `Guides/Getting-Started.md` → `guides/getting-started` (the slug Starlight and others use). */
const slugOf = (rel) =>
  rel
    .replace(/\.md$/, '')
    .split('/')
    .map((s) => s.toLowerCase().replace(/[^a-z0-9-]+/g, '-'))
    .join('/')
    .replace(/(^|\/)index$/, '');

/** Rewrites `[x](./Other.md#h)` in `page` to `[x](/prefix/other/#h)`. */
function rewriteMdLinks(page, toUrl) {
  return page.body.replace(
    /\]\((?!https?:|#|mailto:)([^)\s]+?\.md)(#[^)\s]*)?\)/g,
    (_, target, hash = '') => {
      const rel = path.posix.normalize(path.posix.join(path.posix.dirname(page.rel), target));
      return `](${toUrl(slugOf(rel))}${hash})`;
    },
  );
}

// ---- the corpus --------------------------------------------------------------------------------

/** Each recipe fills ctx.src and returns the folder of its static output (copied to site/). */
export const SITES = {
  docusaurus: {
    generator: `Docusaurus ${V.docusaurus} (create-docusaurus classic template)`,
    async build(ctx) {
      sh(
        ctx,
        `npx --yes create-docusaurus@${V.docusaurus} src classic ${ctx.dir} --javascript --skip-install --package-manager npm`,
        { cwd: ctx.dir },
      );
      sh(ctx, 'npm install --loglevel=error');
      sh(ctx, 'npx docusaurus build');
      return path.join(ctx.src, 'build');
    },
  },

  vitepress: {
    generator: `VitePress ${V.vitepress} (\`vitepress init\` scaffold, default theme, local search on)`,
    async build(ctx) {
      write(
        path.join(ctx.src, 'package.json'),
        '{ "name": "vitepress-site", "private": true, "type": "module" }\n',
      );
      sh(ctx, `npm install --loglevel=error vitepress@${V.vitepress}`);
      // What `vitepress init` does with its answers (title, description, default theme).
      sh(
        ctx,
        `node -e "import('vitepress').then((v) => v.scaffold({ root: '.', title: 'My Awesome Project', description: 'A VitePress Site', theme: 'default theme', useTs: false, injectNpmScripts: true }))"`,
      );
      const config = ['config.mjs', 'config.js']
        .map((f) => path.join(ctx.src, '.vitepress', f))
        .find((f) => fs.existsSync(f));
      edit(config, 'socialLinks: [', "search: { provider: 'local' },\n\n    socialLinks: [");
      sh(ctx, 'npx vitepress build');
      return path.join(ctx.src, '.vitepress/dist');
    },
  },

  vuepress: {
    generator: `VuePress ${V.vuepress} (create-vuepress ${V.vuepressPlugins} blog template, Vite bundler)`,
    async build(ctx) {
      const tool = unpacked(ctx, `create-vuepress@${V.vuepressPlugins}`, 'create-vuepress');
      copyDir(path.join(tool, 'template/blog'), path.join(ctx.src, 'docs'));
      // What create-vuepress does to the template's config for the Vite bundler.
      const config = path.join(ctx.src, 'docs/.vuepress/config.js');
      edit(
        config,
        /\n\nexport default defineUserConfig\(\{/,
        "\nimport { viteBundler } from '@vuepress/bundler-vite'\n\nexport default defineUserConfig({",
      );
      edit(config, /\}\)\n$/, '\n  bundler: viteBundler(),\n})\n');
      // The package.json create-vuepress writes for the blog preset and the Vite bundler.
      write(
        path.join(ctx.src, 'package.json'),
        JSON.stringify(
          {
            name: 'my-vuepress-site',
            private: true,
            type: 'module',
            scripts: { 'docs:build': 'vuepress build docs' },
            devDependencies: {
              '@vuepress/bundler-vite': V.vuepress,
              '@vuepress/theme-default': V.vuepressPlugins,
              '@vuepress/plugin-blog': V.vuepressPlugins,
              'sass-embedded': '^1.98.0',
              vue: '^3.5.31',
              vuepress: V.vuepress,
            },
          },
          null,
          2,
        ),
      );
      sh(ctx, 'npm install --loglevel=error');
      sh(ctx, 'npx vuepress build docs --dest dist');
      return path.join(ctx.src, 'dist');
    },
  },

  'next-fumadocs': {
    generator: `Next.js App Router static export (create-fumadocs-app ${V.fumadocs}, template +next+fuma-docs-mdx+static, Orama static search)`,
    async build(ctx) {
      sh(
        ctx,
        `npx --yes create-fumadocs-app@${V.fumadocs} src --template +next+fuma-docs-mdx+static --pm npm --no-git --search orama --linter biome --og-image next-og --yes`,
        { cwd: ctx.dir },
      );
      sh(ctx, 'npm install --loglevel=error');
      // next/font/google downloads Inter from Google Fonts at build time, which this machine
      // cannot reach: the layout keeps the system font instead (the only change to the starter).
      const layout = path.join(ctx.src, 'app/layout.tsx');
      edit(layout, /import \{ Inter \} from 'next\/font\/google';\n/, '');
      edit(layout, /const inter = Inter\(\{[^}]*\}\);\n/, '');
      edit(layout, ' className={inter.className}', '');
      sh(ctx, 'npx next build');
      return path.join(ctx.src, 'out');
    },
  },

  sveltekit: {
    generator: `SvelteKit (sv ${V.sv} create --template demo, @sveltejs/adapter-static ${V.adapterStatic})`,
    async build(ctx) {
      sh(
        ctx,
        `npx --yes sv@${V.sv} create src --template demo --types ts --no-add-ons --no-install --no-dir-check`,
        { cwd: ctx.dir },
      );
      sh(
        ctx,
        `npm install --loglevel=error && npm install --loglevel=error -D @sveltejs/adapter-static@${V.adapterStatic}`,
      );
      // The kit options live in svelte.config.js, or (newer templates) in vite.config.ts.
      const config = ['svelte.config.js', 'vite.config.ts']
        .map((f) => path.join(ctx.src, f))
        .find((f) => fs.existsSync(f));
      edit(
        config,
        /import adapter from '@sveltejs\/adapter-[a-z]+';/,
        "import adapter from '@sveltejs/adapter-static';",
      );
      // Sverdle plays through form actions on a server: a static host has none. Its page is left
      // out (it cannot be prerendered); the rest of the demo (home, about, how to play) stays.
      fs.rmSync(path.join(ctx.src, 'src/routes/sverdle/+page.server.ts'), { force: true });
      fs.rmSync(path.join(ctx.src, 'src/routes/sverdle/+page.svelte'), { force: true });
      edit(
        config,
        /adapter: adapter\(\)/,
        "adapter: adapter({ fallback: '404.html' }),\n\t\t\tprerender: { handleHttpError: 'warn' }",
      );
      write(path.join(ctx.src, 'src/routes/+layout.ts'), 'export const prerender = true;\n');
      sh(ctx, 'npx vite build');
      return path.join(ctx.src, 'build');
    },
  },

  starlight: {
    generator: `Astro ${V.astro} + Starlight ${V.starlight} (Pagefind search), content: fastify ${V.fastify} docs`,
    async build(ctx) {
      write(
        path.join(ctx.src, 'package.json'),
        '{ "name": "starlight-site", "private": true, "type": "module" }\n',
      );
      sh(
        ctx,
        `npm install --loglevel=error astro@${V.astro} @astrojs/starlight@${V.starlight} sharp`,
      );
      write(
        path.join(ctx.src, 'astro.config.mjs'),
        `import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
export default defineConfig({
  integrations: [
    starlight({
      title: 'Fastify',
      sidebar: [
        { label: 'Guides', autogenerate: { directory: 'guides' } },
        { label: 'Reference', autogenerate: { directory: 'reference' } },
      ],
    }),
  ],
});
`,
      );
      write(
        path.join(ctx.src, 'src/content.config.ts'),
        `import { defineCollection } from 'astro:content';
import { docsLoader } from '@astrojs/starlight/loaders';
import { docsSchema } from '@astrojs/starlight/schema';
export const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };
`,
      );
      const docs = fastifyDocs(ctx);
      // The one figure is served from public/ (Astro's image pipeline cannot read its SVG).
      copyDir(path.join(docs.root, 'resources'), path.join(ctx.src, 'public/resources'));
      for (const page of docs.pages) {
        const body = rewriteMdLinks(page, (slug) => `/${slug}${slug ? '/' : ''}`);
        write(
          path.join(ctx.src, 'src/content/docs', page.rel.toLowerCase()),
          `---\ntitle: ${JSON.stringify(page.title)}\n---\n\n${body
            .replace(/<a id="[^"]*"><\/a>\n?/g, '')
            .replace(
              /!\[([^\]]*)\]\(\.\.\/resources\/([^)]+)\)/g,
              '<img alt="$1" src="/resources/$2">',
            )}`,
        );
      }
      sh(ctx, 'npx astro build');
      return path.join(ctx.src, 'dist');
    },
  },

  hexo: {
    generator: `Hexo (hexo-cli ${V.hexo} init: its bundled hexo-starter, landscape theme)`,
    async build(ctx) {
      // hexo init clones hexo-starter from GitHub and, offline, falls back to the copy it bundles.
      sh(ctx, `npx --yes hexo-cli@${V.hexo} init src`, { cwd: ctx.dir });
      if (!fs.existsSync(path.join(ctx.src, 'node_modules/hexo')))
        sh(ctx, 'npm install --loglevel=error');
      sh(ctx, 'npx hexo generate');
      return path.join(ctx.src, 'public');
    },
  },

  'mkdocs-material': {
    generator:
      'MkDocs + Material for MkDocs (Debian mkdocs, mkdocs-material), content: fastify docs',
    async build(ctx) {
      aptInstall(ctx, ['mkdocs', 'mkdocs-material']);
      const docs = fastifyDocs(ctx);
      copyDir(path.join(docs.root, 'resources'), path.join(ctx.src, 'docs/resources'));
      for (const page of docs.pages) {
        write(path.join(ctx.src, 'docs', page.rel), `# ${page.title}\n\n${page.body}`);
      }
      write(
        path.join(ctx.src, 'mkdocs.yml'),
        `site_name: Fastify
site_url: http://localhost/
use_directory_urls: true
theme:
  name: material
  features:
    - navigation.instant
    - navigation.tabs
    - navigation.sections
    - navigation.top
    - search.suggest
    - search.highlight
    - content.code.copy
  palette:
    - scheme: default
      toggle:
        icon: material/brightness-7
        name: Switch to dark mode
    - scheme: slate
      toggle:
        icon: material/brightness-4
        name: Switch to light mode
plugins:
  - search
markdown_extensions:
  - admonition
  - toc:
      permalink: true
  - pymdownx.highlight
  - pymdownx.superfences
  - pymdownx.tabbed
`,
      );
      sh(ctx, 'mkdocs build -d dist 2>&1');
      return path.join(ctx.src, 'dist');
    },
  },

  'sphinx-furo': {
    generator:
      "Sphinx + Furo (Debian python3-sphinx, furo), content: Sphinx's own docs (Debian sphinx-doc)",
    async build(ctx) {
      aptInstall(ctx, ['python3-sphinx', 'furo', 'sphinx-doc']);
      sphinxSources(ctx, 'furo');
      sh(ctx, 'sphinx-build -b html -j 2 -q . _build');
      const script = read(path.join(ctx.src, '_build/_static/scripts/furo.js'));
      if (script.startsWith('import '))
        throw new BuildError(
          "Debian's furo 2022.12.07+dfsg ships its unbundled sources: furo.js is an ES module loaded as a classic script and furo.css imports /javascript/normalize.css, so the built site's scripts fail on the original (the bundled furo is on PyPI, which this machine cannot reach)",
        );
      return path.join(ctx.src, '_build');
    },
  },

  'sphinx-rtd': {
    generator:
      "Sphinx + Read the Docs theme (Debian python3-sphinx-rtd-theme), content: Sphinx's own docs",
    async build(ctx) {
      aptInstall(ctx, ['python3-sphinx', 'python3-sphinx-rtd-theme', 'sphinx-doc']);
      sphinxSources(ctx, 'sphinx_rtd_theme');
      sh(ctx, 'sphinx-build -b html -j 2 -q . _build');
      return path.join(ctx.src, '_build');
    },
  },

  angular: {
    generator: `Angular ${V.angular} (ng new --ssr, every route prerendered, outputMode static)`,
    async build(ctx) {
      sh(
        ctx,
        `npx --yes @angular/cli@${V.angular} new src --defaults --ssr --skip-git --skip-install --style css --routing`,
        { cwd: ctx.dir },
      );
      sh(ctx, 'npm install --loglevel=error --legacy-peer-deps');
      const file = path.join(ctx.src, 'angular.json');
      const config = JSON.parse(read(file));
      const options = config.projects.src.architect.build.options;
      options.outputMode = 'static';
      delete options.server;
      delete options.ssr;
      write(file, JSON.stringify(config, null, 2));
      sh(ctx, 'npx ng build');
      return path.join(ctx.src, 'dist/src/browser');
    },
  },

  storybook: {
    generator: `Storybook ${V.storybook} (storybook init's example stories in a create-vite ${V.createVite} react-ts app)`,
    async build(ctx) {
      sh(ctx, `npx --yes create-vite@${V.createVite} src --template react-ts --no-interactive`, {
        cwd: ctx.dir,
      });
      sh(ctx, 'npm install --loglevel=error');
      sh(
        ctx,
        `npx --yes storybook@${V.storybook} init --yes --no-dev --type react --builder vite --skip-install --disable-telemetry`,
      );
      sh(ctx, 'npm install --loglevel=error');
      sh(ctx, 'npx storybook build -o storybook-static --disable-telemetry');
      return path.join(ctx.src, 'storybook-static');
    },
  },

  docsify: {
    generator: `docsify ${V.docsify} (docsify-cli ${V.docsifyCli} init --local: client-rendered Markdown)`,
    async build(ctx) {
      write(path.join(ctx.src, 'package.json'), '{ "name": "docsify-site", "private": true }\n');
      sh(
        ctx,
        `npm install --loglevel=error --ignore-scripts docsify-cli@${V.docsifyCli} docsify@${V.docsify}`,
      );
      sh(ctx, 'npx docsify init ./docs --local --theme vue');
      // docsify-cli 5.0.0 copies core.css and vue.css but its index.html links the .min.css files.
      const themes = path.join(ctx.src, 'node_modules/docsify/dist/themes');
      for (const css of ['core.min.css', 'addons/vue.min.css'])
        if (
          !fs.existsSync(path.join(ctx.src, 'docs/vendor/themes', css)) &&
          fs.existsSync(path.join(themes, css))
        )
          fs.copyFileSync(path.join(themes, css), path.join(ctx.src, 'docs/vendor/themes', css));
      return path.join(ctx.src, 'docs');
    },
  },

  'eleventy-tags': {
    generator: `Eleventy ${V.eleventy}: fastify docs in one template with gtag (GA4), Plausible, vanilla-cookieconsent ${V.cookieconsent}, a chat-widget loader, a 1×1 pixel and a hashchange scroll-spy`,
    async build(ctx) {
      write(
        path.join(ctx.src, 'package.json'),
        '{ "name": "tags-site", "private": true, "type": "module" }\n',
      );
      sh(
        ctx,
        `npm install --loglevel=error @11ty/eleventy@${V.eleventy} vanilla-cookieconsent@${V.cookieconsent}`,
      );
      const docs = fastifyDocs(ctx);
      for (const page of docs.pages) {
        const slug = slugOf(page.rel);
        const body = rewriteMdLinks(page, (s) => `/${s}${s ? '/' : ''}`);
        write(
          path.join(ctx.src, 'content', page.rel),
          `---\nlayout: page.njk\ntitle: ${JSON.stringify(page.title)}\npermalink: /${slug}${slug ? '/' : ''}\n---\n\n${body}`,
        );
      }
      copyDir(path.join(import.meta.dirname, 'tags-site'), path.join(ctx.src, 'content'));
      const cc = path.join(ctx.src, 'node_modules/vanilla-cookieconsent/dist');
      copyDir(cc, path.join(ctx.src, 'content/assets/cookieconsent'));
      write(
        path.join(ctx.src, 'eleventy.config.js'),
        `export default function (config) {
  config.addPassthroughCopy({ 'content/assets': 'assets' });
  config.addCollection('docs', (api) => api.getAll().filter((p) => p.data.layout === 'page.njk').sort((a, b) => a.url.localeCompare(b.url)));
  return { dir: { input: 'content', includes: '_includes', output: '_site' }, markdownTemplateEngine: false };
}
`,
      );
      sh(ctx, 'npx @11ty/eleventy');
      return path.join(ctx.src, '_site');
    },
  },

  'todomvc-vue': todomvc('vue'),
  'todomvc-react': todomvc('react'),
  'todomvc-backbone': todomvc('backbone'),
};

/** A TodoMVC app from the todomvc npm package (its examples ship with their bower_components). */
function todomvc(app) {
  return {
    generator: `TodoMVC ${app} example (npm todomvc ${V.todomvc}), client-rendered`,
    async build(ctx) {
      const pkg = unpacked(ctx, `todomvc@${V.todomvc}`, 'todomvc');
      const out = path.join(ctx.src, 'out');
      copyDir(path.join(pkg, 'examples', app), out);
      // base.js reads ../../learn.json for its sidebar: the app is served at the site's root.
      if (fs.existsSync(path.join(pkg, 'learn.json')))
        fs.copyFileSync(path.join(pkg, 'learn.json'), path.join(out, 'learn.json'));
      return out;
    },
  };
}

/** Sphinx's own documentation sources (Debian's sphinx-doc ships them as _sources/*.rst.txt). */
function sphinxSources(ctx, theme) {
  const from = '/usr/share/doc/sphinx-doc/rst';
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.rst.txt')) {
        const rel = path.relative(from, file).replace(/\.txt$/, '');
        write(path.join(ctx.src, rel), read(file));
      }
    }
  };
  walk(from);
  // The object types and roles Sphinx's own conf.py declares, so its pages build as they do there.
  write(
    path.join(ctx.src, 'conf.py'),
    `project = 'Sphinx'
copyright = '2007-2022, the Sphinx developers'
version = release = '5.3.0'
extensions = ['sphinx.ext.autodoc', 'sphinx.ext.doctest', 'sphinx.ext.todo',
              'sphinx.ext.extlinks', 'sphinx.ext.viewcode', 'sphinx.ext.napoleon']
root_doc = 'index'
templates_path = []
exclude_patterns = ['_build']
html_theme = '${theme}'
html_title = 'Sphinx documentation'
extlinks = {'duref': ('https://docutils.sourceforge.io/docs/ref/rst/restructuredtext.html#%s', '%s'),
            'durole': ('https://docutils.sourceforge.io/docs/ref/rst/roles.html#%s', '%s'),
            'dudir': ('https://docutils.sourceforge.io/docs/ref/rst/directives.html#%s', '%s')}
suppress_warnings = ['ref', 'toc', 'autodoc', 'misc.highlighting_failure', 'app.add_directive']

def setup(app):
    from sphinx.ext.autodoc import cut_lines
    from sphinx.util.docfields import GroupedField
    app.connect('autodoc-process-docstring', cut_lines(4, what=['module']))
    app.add_object_type('confval', 'confval', objname='configuration value',
                        indextemplate='pair: %s; configuration value')
    fdesc = GroupedField('parameter', label='Parameters', names=['param'], can_collapse=True)
    app.add_object_type('event', 'event', 'pair: %s; event', doc_field_types=[fdesc])
    app.add_object_type('setuptools-confval', 'setuptools-confval', objname='setuptools configuration value',
                        indextemplate='pair: %s; setuptools configuration value')
`,
  );
}

/** Counts the built site's HTML pages. */
function countPages(dir) {
  let n = 0;
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(d, entry.name));
      else if (entry.name.endsWith('.html')) n++;
    }
  };
  walk(dir);
  return n;
}

export function builtSites() {
  return Object.keys(SITES).filter((name) => fs.existsSync(path.join(CACHE, name, 'build.json')));
}

async function main() {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      force: { type: 'boolean' },
      list: { type: 'boolean' },
    },
  });
  if (values.list) {
    for (const [name, site] of Object.entries(SITES)) log(`${name.padEnd(18)} ${site.generator}`);
    return;
  }
  const only = values.only?.split(',');
  const names = Object.keys(SITES).filter((n) => !only || only.includes(n));
  fs.mkdirSync(CACHE, { recursive: true });
  const rows = [];
  for (const name of names) {
    const dir = path.join(CACHE, name);
    const info = path.join(dir, 'build.json');
    if (fs.existsSync(info) && !values.force) {
      const b = JSON.parse(read(info));
      rows.push([name, 'cached', String(b.pages), b.generator]);
      continue;
    }
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const ctx = { name, dir, src: path.join(dir, 'src'), logFile: path.join(dir, 'build.log') };
    const started = Date.now();
    log(`building ${name} …`);
    try {
      const out = await SITES[name].build(ctx);
      if (!fs.existsSync(out)) throw new BuildError(`no output folder ${out}`);
      copyDir(out, path.join(dir, 'site'));
      const pages = countPages(path.join(dir, 'site'));
      if (pages === 0) throw new BuildError('the build wrote no HTML page');
      const seconds = (Date.now() - started) / 1000;
      write(
        info,
        JSON.stringify(
          { name, generator: SITES[name].generator, pages, seconds, at: new Date().toISOString() },
          null,
          2,
        ),
      );
      rows.push([name, `built ${seconds.toFixed(0)} s`, String(pages), SITES[name].generator]);
      log(`  built ${name}: ${pages} pages in ${seconds.toFixed(0)} s`);
    } catch (error) {
      const why = error instanceof BuildError ? error.message : error.stack;
      fs.writeFileSync(path.join(dir, 'failed.txt'), `${why}\n`);
      rows.push([name, 'FAILED', '—', why.replace(/\s+/g, ' ').slice(0, 200)]);
      log(`  FAILED ${name}: ${why.slice(0, 400)} (log: ${ctx.logFile})`);
    }
  }
  log('');
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length), 6));
  log(
    `${'site'.padEnd(widths[0])}  ${'result'.padEnd(widths[1])}  ${'pages'.padStart(widths[2])}  generator / reason`,
  );
  for (const r of rows)
    log(
      `${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2].padStart(widths[2])}  ${r[3]}`,
    );
  log(`\ncache: ${CACHE}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
