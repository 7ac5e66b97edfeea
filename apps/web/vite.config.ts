import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type PluginOption } from 'vite';

// @mirror/contract is side-effect free and keeps its constants in zod-free modules, so importing
// constants does not pull zod into the landing bundle; importing a schema would.
export default defineConfig({
  // The react plugin's types come from the root vite (8, hoisted for vitest); this app builds with 7.
  plugins: [react() as unknown as PluginOption],
  resolve: { conditions: ['@mirror/source', ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    modulePreload: { polyfill: false },
    emptyOutDir: true,
  },
  server: {
    proxy: { '/api': { target: 'http://localhost:8080', changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: 'http://localhost:8080', changeOrigin: false } },
  },
});
