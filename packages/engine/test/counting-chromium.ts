import fs from 'node:fs';
import path from 'node:path';

/**
 * A Chromium (for `chromiumPath`) that writes a line to a log in `dir` each time it is launched:
 * the proof that a run started no browser at all, or only once.
 */
export function countingChromium(dir: string): { path: string; launches(): number } {
  const log = path.join(dir, 'launches');
  const file = path.join(dir, 'chromium');
  const real = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  fs.writeFileSync(file, `#!/bin/sh\necho launch >> '${log}'\nexec '${real}' "$@"\n`, {
    mode: 0o755,
  });
  return {
    path: file,
    launches: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').length - 1 : 0),
  };
}
