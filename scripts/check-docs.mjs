#!/usr/bin/env node
// Every link in README.md and docs/ leads to a file inside this repository (or to the web), and no page
// sends the reader to a path outside it: the repository documents itself.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pages = ['README.md'];
(function walk(dir) {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(rel);
    else if (entry.name.endsWith('.md')) pages.push(rel);
  }
})('docs');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const anchorsOf = (file) =>
  new Set(
    [...fs.readFileSync(file, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
      slug(m[1].replace(/`/g, '')),
    ),
  );

const problems = [];
for (const page of pages) {
  const text = fs.readFileSync(path.join(root, page), 'utf8');
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  const bare = [...text.matchAll(/`(\.\.\/[^`\s]+)`/g)].map((m) => m[1]);
  for (const target of bare) problems.push(`${page}: points outside the repository: ${target}`);
  for (const link of links) {
    if (/^[a-z]+:/i.test(link)) continue;
    const [file, anchor] = link.split('#');
    const resolved = file ? path.resolve(root, path.dirname(page), file) : path.join(root, page);
    if (!resolved.startsWith(root + path.sep)) {
      problems.push(`${page}: links outside the repository: ${link}`);
    } else if (!fs.existsSync(resolved)) {
      problems.push(`${page}: links to a missing file: ${link}`);
    } else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
      problems.push(`${page}: links to a missing heading: ${link}`);
    }
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`${pages.length} pages, every link inside the repository resolves`);
