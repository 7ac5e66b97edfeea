import { PNG } from 'pngjs';
import fs from 'node:fs';
function png(file, w, h, rgb) {
  const p = new PNG({ width: w, height: h });
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (w * y + x) << 2;
      const stripe = ((x >> 3) + (y >> 3)) % 2 === 0;
      p.data[i] = stripe ? rgb[0] : 255 - rgb[0];
      p.data[i + 1] = stripe ? rgb[1] : 255 - rgb[1];
      p.data[i + 2] = stripe ? rgb[2] : 255 - rgb[2];
      p.data[i + 3] = 255;
    }
  fs.writeFileSync(file, PNG.sync.write(p));
}
const base = new URL('./fixtures/', import.meta.url).pathname;
png(base + 'basic/img/hero.png', 320, 120, [30, 90, 200]);
png(base + 'basic/img/hero-2x.png', 640, 240, [30, 90, 200]);
png(base + 'basic/img/small.png', 160, 60, [30, 90, 200]);
png(base + 'basic/img/picture.png', 200, 80, [200, 60, 60]);
png(base + 'basic/img/lazy.png', 200, 80, [60, 160, 60]);
png(base + 'basic/img/poster.png', 240, 135, [120, 60, 160]);
png(base + 'basic/img/bg.png', 32, 32, [240, 200, 40]);
png(base + 'basic/img/inline-bg.png', 32, 32, [40, 200, 240]);
png(base + 'basic/img/set-1x.png', 100, 40, [10, 10, 10]);
png(base + 'basic/img/og.png', 60, 30, [0, 0, 0]);
png(base + 'basic/img/noscript.png', 100, 40, [250, 120, 0]);
png(base + 'basic/img/icon.png', 32, 32, [200, 30, 90]);
png(base + 'basic/img/manifest-icon.png', 48, 48, [90, 30, 200]);
png(base + 'basic/img/style-attr.png', 32, 32, [0, 128, 128]);
png(base + 'cdn/cdn/logo.png', 120, 40, [255, 140, 0]);
png(base + 'cdn/cdn/pattern.png', 16, 16, [100, 100, 255]);
for (let i = 1; i <= 12; i++)
  png(`${base}js-fetch-grid/img/p${String(i).padStart(2, '0')}.png`, 180, 180, [
    (i * 53) % 256,
    (i * 97) % 256,
    (i * 151) % 256,
  ]);
