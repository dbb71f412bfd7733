// HTTP tests run the real server, which needs Astro's build: build once before the suite when missing.
import { buildIfNeeded } from '../scripts/build-if-needed.js';

export default function setup(): void {
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  buildIfNeeded();
}
