// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

export default defineConfig({
  output: 'server',
  // 'middleware' mode: our own node server (src/server/) serves the rendered artifacts and hands the rest to Astro.
  adapter: node({ mode: 'middleware' }),
  security: {
    // Public forms on other sites post here (follow, register, RSVP): Astro's same-origin check would answer 403.
    checkOrigin: false,
  },
  vite: {
    build: {
      // Pages have a Content-Security-Policy with script-src 'self': their scripts must be files, never inlined.
      assetsInlineLimit: 0,
    },
    ssr: {
      // Native addon: must stay a runtime require, never bundled.
      external: ['better-sqlite3'],
    },
  },
});
