// Speaker labels in the reader's language (issue 25): the API's values rep / customer / A / B are shown as 销售,
// 客户, 说话人 A, 说话人 B in Chinese (Rep, Customer, Speaker A, Speaker B in English); a typed label stays as given.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { TFunction } from 'i18next';
import { CHANNEL_ROLES, SPEAKER_LABELS, speakerLabel } from '../../renderer/src/features/calls/speaker-label.js';

const localeOf = (language: string) => {
  const calls = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../renderer/src/i18n/locales', language, 'calls.json'), 'utf8')) as Record<string, Record<string, string>>;
  return ((key: string) => calls.speaker![key.replace('calls.speaker.', '')] ?? key) as unknown as TFunction;
};

describe('speaker labels', () => {
  test('in Chinese', () => {
    const t = localeOf('zh-CN');
    assert.equal(speakerLabel(t, 'rep'), '销售');
    assert.equal(speakerLabel(t, 'customer'), '客户');
    assert.match(speakerLabel(t, 'A'), /^说话人 A/);
    assert.match(speakerLabel(t, 'B'), /^说话人 B/);
    assert.equal(speakerLabel(t, '王经理'), '王经理');
    assert.equal(speakerLabel(t, 'constructor'), 'constructor');
  });

  test('in English, and the upload offers only labelled roles', () => {
    const t = localeOf('en');
    assert.equal(speakerLabel(t, 'rep'), 'Rep');
    assert.equal(speakerLabel(t, 'customer'), 'Customer');
    for (const role of CHANNEL_ROLES) assert.ok(SPEAKER_LABELS[role], role);
  });
});
