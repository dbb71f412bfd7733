// Which competitions a restored database took back behind the folder's last render.
import { describe, expect, it } from 'vitest';
import type { ManifestEvent } from './render-organization.js';
import { behindEvents } from './restored-calendars.js';

const rendered = (revision: number) => ({ revision, entry: {}, files: {} }) as unknown as ManifestEvent;

describe('behindEvents', () => {
  it.each<[string, Record<string, ManifestEvent>, Array<{ id: string; revision: number }>, ReturnType<typeof behindEvents>]>([
    ['as rendered', { a: rendered(5) }, [{ id: 'a', revision: 5 }], []],
    ['changed since the render (ahead)', { a: rendered(5) }, [{ id: 'a', revision: 7 }], []],
    ['went back 3 revisions (a backup restored)', { a: rendered(8) }, [{ id: 'a', revision: 5 }], [{ id: 'a', gap: 3, revision: 9 }]],
    ['never rendered (new, or private until now)', {}, [{ id: 'a', revision: 1 }], []],
    ['rendered, gone from the database', { a: rendered(4) }, [], []],
    ['an id that is an Object.prototype key', {}, [{ id: 'constructor', revision: 1 }], []],
  ])('%s', (_name, manifest, heads, behind) => {
    expect(behindEvents(manifest, heads)).toEqual(behind);
  });
});
