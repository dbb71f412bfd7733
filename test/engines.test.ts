// The README promises a Node version; every package the lockfile installs must accept it (npm warns
// EBADENGINE otherwise, and a package that needs a newer Node may fail at run time).
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: Record<string, string> | string[]; optional?: boolean }>;
};
const minimum = semver.minVersion(pkg.engines.node)!.version;

describe('the Node version the README promises', () => {
  it('is the one package.json declares, and the one this machine runs satisfies it', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`Node ${minimum} or later`);
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });

  it('is accepted by every package the lockfile installs', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([name, p]) => name !== '' && !p.optional && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !semver.satisfies(minimum, (p.engines as Record<string, string>).node!, { includePrerelease: true }))
      .map(([name, p]) => `${name}@${p.version} wants node ${(p.engines as Record<string, string>).node}`);
    expect(refusing).toEqual([]);
  });
});
