// The built renderer's first load stays within its budget: the entry chunk and everything it imports
// statically ≤ 250 KB gzip; pages, charts and languages load on demand. `npm run bench -- renderer` reports it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertRendererBuilt } from './browser.js';
import { defaultRendererDir } from '../../server/static/static.js';
import { bundleSizes, INITIAL_JS_BUDGET_GZIP } from '../../bench/renderer-size.js';

test('initial JavaScript of the renderer is at most 250 KB gzip, and admin pages are not part of it', () => {
  assertRendererBuilt();
  const sizes = bundleSizes(defaultRendererDir());
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  assert.ok(sizes.initialGzip <= INITIAL_JS_BUDGET_GZIP, `initial JS is ${kb(sizes.initialGzip)} gzip: ${sizes.initial.map((f) => `${f.file} ${kb(f.gzip)}`).join(', ')}`);
  const initialFiles = sizes.initial.map((f) => f.file).join(' ');
  for (const page of ['UsersPage', 'SystemConfigPage', 'MediaReviewPage', 'KnowledgeReviewPage', 'PacksPage', 'AdminRecordsPage', 'DepartmentsPage', 'PositionsPage', 'ModelRoutesPage', 'SpecialistsPage', 'SpeechPage', 'DraftsPage']) {
    assert.ok(!initialFiles.includes(page), `${page} is loaded on demand`);
    assert.ok(sizes.lazy.some((f) => f.file.includes(page)), `${page} is a chunk of its own`);
  }
});
