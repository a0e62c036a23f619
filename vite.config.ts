// Renderer build: React with esbuild's automatic JSX runtime (no React plugin needed), output in
// dist/renderer with relative asset paths so the same files load from the browser-mode server and
// from the Electron shell's app:// protocol. KaTeX's fonts are emitted as files (no data: URLs
// needed, though the CSP allows them).
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'renderer',
  base: './',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    target: 'es2022',
    rollupOptions: {
      // zod's sources carry /* @__PURE__ */ comments where Rollup can't use them; it drops them
      // and says so on every build. Harmless, and not ours: only that notice is silenced.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
    },
  },
  server: { host: '127.0.0.1' },
});
