// Speakers of mono calls, voiceprints, transcript revisions and exports, over real HTTP: sherpa-onnx (in its child
// process) with the generated tiny speaker models, whisper.cpp with the tiny Whisper model, calls spoken by
// espeak-ng's male and female voices.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import JSZip from 'jszip';
import { LOCAL_PATH_MISSING } from './audio-fixtures.js';
import { speakerSuite, type Segment } from './speaker-fixtures.js';

describe('transcript revisions, exports and VAD', { skip: LOCAL_PATH_MISSING }, () => {
  const suite = speakerSuite({ vad: true });

  test('an edit is revision 2; revision 1 stays the original; a stale save is a 409; coaching analyses revision 2; exports carry names, times and the file name in any language', async () => {
    const { ts, call, rep, models, modelsDir, transcribe, setConfig, routeStatus } = suite;
    // A file name in Chinese, as reps name their recordings: it reaches Content-Disposition whole.
    const named = path.join(ts.dataDir, '客户通话 2026.wav');
    await fs.copyFile(call.wav, named);
    const res = await transcribe(rep.token, named);
    assert.equal(res.status, 200, res.text);
    const original = res.body.data;
    assert.equal(original.revision, 1);
    const edited: Segment[] = original.segments.map((s: Segment, i: number) => ({ ...s, text: i === 0 ? 'Good morning, this is David from Trainbench Bank.' : s.text, speaker: s.speaker === 'A' ? 'rep' : 'customer' }));
    const put = await ts.api.put(`/api/audio/transcriptions/${original.id}/segments`, { token: rep.token, body: { base_revision: 1, segments: edited, speaker_names: { rep: '王经理', customer: '李女士' } } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.data.revision, 2);
    assert.equal(put.body.data.segments[0].text, 'Good morning, this is David from Trainbench Bank.');
    assert.deepEqual(put.body.data.speaker_names, { rep: '王经理', customer: '李女士' });

    const latest = await ts.api.get(`/api/audio/transcriptions/${original.id}`, { token: rep.token });
    assert.deepEqual([latest.body.data.revision, latest.body.data.latest_revision], [2, 2]);
    const first = await ts.api.get(`/api/audio/transcriptions/${original.id}?revision=1`, { token: rep.token });
    assert.deepEqual(first.body.data.segments, original.segments);
    assert.equal((await ts.api.get(`/api/audio/transcriptions/${original.id}?revision=3`, { token: rep.token })).status, 404);

    const stale = await ts.api.put(`/api/audio/transcriptions/${original.id}/segments`, { token: rep.token, body: { base_revision: 1, segments: original.segments } });
    assert.deepEqual([stale.status, stale.body.error, stale.body.data], [409, 'audio.revision_conflict', null]);
    const bad = await ts.api.put(`/api/audio/transcriptions/${original.id}/segments`, { token: rep.token, body: { base_revision: 2, segments: [{ start: 3, end: 1, text: 'x' }] } });
    assert.deepEqual([bad.status, bad.body.error], [400, 'validation_failed']);
    const other = await ts.user();
    assert.equal((await ts.api.put(`/api/audio/transcriptions/${original.id}/segments`, { token: other.token, body: { base_revision: 2, segments: [] } })).status, 404);

    const report = await ts.api.post('/api/coaching/calls', { token: rep.token, body: { transcription_id: original.id, rep_speaker: 'rep' } });
    assert.equal(report.status, 201, report.text);
    assert.equal(report.body.data.transcript_revision, 2);
    assert.equal(report.body.data.transcription.revision, 2);
    // Run again on the original: its speakers are A and B.
    const again = await ts.api.post('/api/coaching/calls', { token: rep.token, body: { transcription_id: original.id, revision: 1, rep_speaker: 'A' } });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.data.transcript_revision, 1);

    const exported = async (format: string, lang = 'zh-CN') => {
      const r = await fetch(`${ts.url}/api/audio/transcriptions/${original.id}/export?format=${format}&lang=${lang}`, { headers: { authorization: `Bearer ${rep.token}` } });
      assert.equal(r.status, 200, format);
      return { headers: r.headers, bytes: Buffer.from(await r.arrayBuffer()) };
    };
    const srt = await exported('srt');
    assert.match(srt.headers.get('content-disposition')!, /^attachment; filename="[^"]*2026\.srt"; filename\*=UTF-8''%E5%AE%A2%E6%88%B7%E9%80%9A%E8%AF%9D%202026\.srt$/);
    const srtText = srt.bytes.toString('utf8');
    assert.match(srtText, /^1\n\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}\n王经理: Good morning, this is David from Trainbench Bank\./);
    assert.equal((srtText.match(/ --> /g) ?? []).length, edited.filter((s) => s.text.trim()).length);
    const vtt = (await exported('vtt')).bytes.toString('utf8');
    assert.match(vtt, /^WEBVTT\n\n\d{2}:\d{2}:\d{2}\.\d{3} --> \d{2}:\d{2}:\d{2}\.\d{3}\n<v 王经理>/);
    assert.match(vtt, /<v 李女士>/);
    const txt = (await exported('txt')).bytes.toString('utf8');
    assert.match(txt, /\[00:00 - 00:0\d\] 王经理: Good morning/);
    const docx = await exported('docx');
    assert.equal(docx.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const xml = await (await JSZip.loadAsync(docx.bytes)).file('word/document.xml')!.async('string');
    assert.ok(xml.includes('王经理') && xml.includes('李女士'), 'speaker names in word/document.xml');
    // Unnamed labels in the reader's language; the original revision on request.
    const english = (await fetch(`${ts.url}/api/audio/transcriptions/${original.id}/export?format=txt&lang=en&revision=1`, { headers: { authorization: `Bearer ${rep.token}` } })).text();
    assert.match(await english, /Speaker A: /);
    const bad400 = await ts.api.get(`/api/audio/transcriptions/${original.id}/export?format=pdf`, { token: rep.token });
    assert.deepEqual([bad400.status, bad400.body.error], [400, 'validation_failed']);
  });

});
