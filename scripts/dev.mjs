#!/usr/bin/env node
// `npm run dev`: the API (restarting on change) on :8080 and Vite with hot reload on :5173,
// which proxies /api to the API. Open http://localhost:5173.
import { spawn } from 'node:child_process';

const children = [
  spawn('npm', ['run', 'dev', '-w', '@mirror/server'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', '@mirror/web'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => (stop(), (process.exitCode ||= code ?? 0)));
