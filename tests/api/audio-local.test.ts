// The whole local path for real: ffprobe and ffmpeg from their installer packages, the speech rule per channel and
// whisper.cpp with the generated tiny model, on call recordings made by espeak-ng, sox and ffmpeg.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server.js';
import { writeTinyWhisperModel } from '../support/tiny-whisper-model.js';
import { form } from './media-fixtures.js';
import { LOCAL_PATH_MISSING, PNG_BYTES, callFixtures, type CallFixtures } from './audio-fixtures.js';

interface Segment {
  start: number;
  end: number;
  text: string;
  speaker?: string;
}

/** Command lines of the processes running now that mention `text` (whisper.cpp gets the job's folder in its arguments). */
async function processesMentioning(text: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await fs.readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(text)) found.push(cmdline.replace(/\0/g, ' '));
  }
  return found;
}

const until = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('local speech-to-text for call recordings', { skip: LOCAL_PATH_MISSING }, () => {
  let ts: TestServer;
  let fx: CallFixtures;
  let rep: { id: number; token: string };
  let other: { id: number; token: string };

  const setQuality = (quality: 'fast' | 'accurate') => ts.api.put('/api/system/config', { token: ts.adminToken, body: { configs: { audio_local_quality: quality } } });
  const upload = async (token: string, file: string, fields: Record<string, string> = {}, name = path.basename(file), headers: Record<string, string> = {}) =>
    ts.api.request('POST', '/api/audio/transcribe', { token, headers, form: form(fields, { name, data: new Uint8Array(await fs.readFile(file)) }) });
  const job = (token: string, id: number) => ts.api.get(`/api/audio/jobs/${id}`, { token });
  const waitForState = (token: string, id: number, ok: (j: { state: string; stage: string }) => boolean) =>
    until('job state', async () => {
      const res = await job(token, id);
      return ok(res.body.data) ? res.body.data : undefined;
    });
  const counts = async () => ({
    transcriptions: (await ts.api.get('/api/audio/transcriptions', { token: rep.token })).body.data.total as number,
    jobs: (await ts.api.get('/api/audio/jobs', { token: rep.token })).body.data.total as number,
  });
  const leftovers = async () => [
    ...(await fs.readdir(path.join(ts.dataDir, 'audio', 'incoming')).catch(() => [])),
    ...(await fs.readdir(path.join(ts.dataDir, 'audio', 'jobs')).catch(() => [])),
  ];

  before(async () => {
    [ts, fx] = await Promise.all([startTestServer(), callFixtures()]);
    await fs.mkdir(path.join(ts.dataDir, 'models'), { recursive: true });
    await writeTinyWhisperModel(path.join(ts.dataDir, 'models', 'ggml-tiny-test.bin'), { segmentSeconds: 30 });
    // A local-whisper route names its model by file name and needs no URL.
    const route = await ts.api.post('/api/ai/routes', { token: ts.adminToken, body: { name: 'Desk whisper', kind: 'audio', provider: 'local-whisper', model: 'ggml-tiny-test.bin' } });
    assert.equal(route.status, 201, route.text);
    assert.equal(route.body.data.base_url, '');
    assert.equal(route.body.data.is_local, true);
    await setQuality('fast');
    rep = await ts.user();
    other = await ts.user();
  });
  after(() => ts?.close());

  test('every common format is decoded locally, and a stereo call is labelled by channel', async () => {
    const expected: Record<string, string> = {
      'call-stereo.wav': 'wav',
      'call-44k-24bit.wav': 'wav',
      'call.mp3': 'mp3',
      'call.m4a': 'm4a',
      'call.ogg': 'ogg',
      'call.opus': 'opus',
      'call.flac': 'flac',
      'call.webm': 'webm',
    };
    // Speakers on three of them (two whisper.cpp passes each); the others in one pass over the mix, to keep this short.
    const withSpeakers = new Set(['call-stereo.wav', 'call.mp3', 'call.m4a']);
    for (const [name, format] of Object.entries(expected)) {
      const speakers = withSpeakers.has(name);
      // A regional or upper-case code (as a client may send) reaches whisper.cpp as the bare language.
      const res = await upload(rep.token, fx.files[name]!, { speakers: String(speakers), language: name === 'call.mp3' ? 'EN-us' : 'en' });
      assert.equal(res.status, 200, `${name}: ${res.text}`);
      const t = res.body.data;
      assert.equal(t.route.provider, 'local-whisper', name);
      assert.equal(t.left_local, false, name);
      assert.deepEqual([t.audio.format, t.audio.channels], [format, 2], name);
      assert.ok(t.text.length > 0, name);
      assert.equal(t.has_speakers, speakers, name);
      assert.equal(t.capability_degraded, false, name);
      if (!speakers) continue;
      const segments = t.segments as Segment[];
      assert.deepEqual([...new Set(segments.map((s) => s.speaker))].sort(), ['A', 'B'], `${name}: both channels speak`);
      // The rep (left) speaks first, the customer (right) only after the pause: each label sits on its own channel's speech.
      for (const s of segments.filter((s) => s.speaker === 'A')) assert.ok(s.start < fx.repEnd, `${name}: A at ${s.start}`);
      for (const s of segments.filter((s) => s.speaker === 'B')) assert.ok(s.start >= fx.customerStart - 0.3, `${name}: B at ${s.start}, customer from ${fx.customerStart}`);
      assert.ok(segments.every((s, i) => i === 0 || s.start >= segments[i - 1]!.start), 'segments in time order');
    }
    for (const name of ['call.amr', 'call-8k-8bit.wav']) {
      const res = await upload(rep.token, fx.files[name]!);
      assert.equal(res.status, 200, `${name}: ${res.text}`);
      assert.deepEqual([res.body.data.audio.format, res.body.data.audio.channels, res.body.data.has_speakers], [name.endsWith('.amr') ? 'amr' : 'wav', 1, false]);
      assert.ok(res.body.data.text.length > 0);
    }
  });

  test('channels=rep,customer names the speakers; without a request for speakers a stereo call is one pass', async () => {
    const named = await upload(rep.token, fx.files['call.mp3']!, { channels: 'rep,customer' });
    assert.equal(named.status, 200, named.text);
    assert.equal(named.body.data.speakers_requested, true);
    assert.deepEqual([...new Set((named.body.data.segments as Segment[]).map((s) => s.speaker))].sort(), ['customer', 'rep']);

    const plain = await upload(rep.token, fx.files['call.mp3']!);
    assert.equal(plain.status, 200, plain.text);
    assert.deepEqual([plain.body.data.has_speakers, plain.body.data.capability_degraded], [false, false]);
    assert.ok((plain.body.data.segments as Segment[]).every((s) => !('speaker' in s)));
  });

  test('a mono recording (or two identical channels) gets no made-up speakers and says so', async () => {
    for (const name of ['call-mono.wav', 'dual-mono.wav']) {
      const res = await upload(rep.token, fx.files[name]!, { diarize: 'true' });
      assert.equal(res.status, 200, `${name}: ${res.text}`);
      const t = res.body.data;
      assert.equal(t.has_speakers, false, name);
      assert.equal(t.speakers_requested, true, name);
      assert.equal(t.capability_degraded, true, name);
      assert.match(t.capability_zh, /未进行说话人分离/, name);
      assert.ok((t.segments as Segment[]).every((s) => !('speaker' in s)), name);
    }
  });

  test('not audio, empty, truncated: 4xx in the envelope and nothing stored; a name with ../ is harmless', async () => {
    const before = await counts();
    const refused: [string, Uint8Array, string][] = [
      ['photo.mp3', new Uint8Array(PNG_BYTES), 'unsupported_audio'],
      ['empty.wav', new Uint8Array(0), 'invalid_audio'],
      ['cut.m4a', new Uint8Array(await fs.readFile(fx.files['truncated.m4a']!)), 'invalid_audio'],
    ];
    for (const [name, data, code] of refused) {
      const res = await ts.api.post('/api/audio/transcribe', { token: rep.token, form: form({ async: 'true' }, { name, data }) });
      assert.equal(res.status, 400, `${name}: ${res.text}`);
      assert.deepEqual([res.body.data, res.body.error], [null, code], name);
    }
    assert.deepEqual(await counts(), before, 'no job and no transcription');
    assert.deepEqual(await leftovers(), [], 'no file left behind');

    const sneaky = await upload(rep.token, fx.files['call-mono.wav']!, {}, '../../../etc/passwd.wav');
    assert.equal(sneaky.status, 200, sneaky.text);
    assert.equal(sneaky.body.data.filename, 'passwd.wav');
    assert.deepEqual(await leftovers(), []);
  });

  test('an async job answers 202 at once and streams its progress, then done', async () => {
    const res = await upload(rep.token, fx.files['call-stereo.wav']!, { async: 'true', speakers: 'true' });
    assert.equal(res.status, 202, res.text);
    const created = res.body.data;
    assert.ok(['queued', 'running'].includes(created.state));
    assert.equal(res.headers.get('location'), `/api/audio/jobs/${created.id}`);

    const stream = await fetch(`${ts.url}/api/audio/jobs/${created.id}/events`, { headers: { authorization: `Bearer ${rep.token}` } });
    assert.equal(stream.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    const events = (await stream.text())
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice(6)));
    const last = events.at(-1);
    assert.equal(last.type, 'done', JSON.stringify(events.slice(-3)));
    const percents = events.filter((e) => e.type === 'progress').map((e) => e.job.percent as number);
    assert.ok(percents.length >= 2, `progress events: ${percents}`);
    assert.deepEqual(percents, [...percents].sort((a, b) => a - b), 'percent only grows');
    assert.ok(percents.some((p) => p > 5 && p < 100), `whisper.cpp's own progress shows: ${percents}`);

    const done = (await job(rep.token, created.id)).body.data;
    assert.deepEqual([done.state, done.percent, done.transcription_id], ['done', 100, last.transcription_id]);
    const transcription = (await ts.api.get(`/api/audio/transcriptions/${done.transcription_id}`, { token: rep.token })).body.data;
    assert.deepEqual([transcription.job_id, transcription.has_speakers], [created.id, true]);

    const preferred = await upload(rep.token, fx.files['call-mono.wav']!, {}, 'call.wav', { prefer: 'respond-async' });
    assert.equal(preferred.status, 202, preferred.text);
    await waitForState(rep.token, preferred.body.data.id, (j) => j.state === 'done');
    // A finished job's stream is its last event only.
    const replay = await (await fetch(`${ts.url}/api/audio/jobs/${preferred.body.data.id}/events`, { headers: { authorization: `Bearer ${rep.token}` } })).text();
    assert.match(replay, /^data: \{"type":"done"/);
    assert.equal((await job(other.token, created.id)).status, 404, "another user's job is not found");
    assert.equal((await ts.api.get(`/api/audio/jobs/${created.id}/events`, { token: other.token })).status, 404);
  });

  test('one local transcription at a time: others queue in order and say their place; cancel kills whisper.cpp and stores nothing', async () => {
    // The generated model retries every window when decoding "accurately": slow enough to watch a queue.
    await setQuality('accurate');
    const before = await counts();
    const first = (await upload(rep.token, fx.files['long-mono.wav']!, { async: 'true' })).body.data;
    const running = await waitForState(rep.token, first.id, (j) => j.state === 'running' && j.stage === 'transcribing');
    assert.equal(running.queue_position, null);
    const second = (await upload(rep.token, fx.files['call-mono.wav']!, { async: 'true' })).body.data;
    // Queued from its creation; its place once it has asked for the machine.
    const waiting = await waitForState(rep.token, second.id, (j) => j.state === 'queued' && (j as unknown as { queue_position: number | null }).queue_position !== null);
    assert.equal((waiting as unknown as { queue_position: number }).queue_position, 1);

    // A synchronous request queues too, behind the second.
    const third = upload(rep.token, fx.files['call-mono.wav']!);
    const list = await until('third queued', async () => {
      const items = (await ts.api.get('/api/audio/jobs?state=queued', { token: rep.token })).body.data.items as { id: number; queue_position: number }[];
      // A job is queued from its creation, and has its place once it has asked for the machine (after probing).
      return items.length === 2 && items.every((j) => j.queue_position !== null) ? items : undefined;
    });
    assert.deepEqual(
      list.map((j) => j.queue_position),
      [2, 1],
      'newest first, each with its place',
    );
    const workDir = path.join(ts.dataDir, 'audio', 'work', String(first.id));
    assert.ok((await processesMentioning(workDir)).length > 0, 'whisper.cpp runs for the first job');

    assert.equal((await ts.api.delete(`/api/audio/jobs/${first.id}`, { token: other.token })).status, 404);
    await setQuality('fast');
    const cancelled = await ts.api.delete(`/api/audio/jobs/${first.id}`, { token: rep.token });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.deepEqual([cancelled.body.data.state, cancelled.body.data.transcription_id], ['cancelled', null]);
    assert.deepEqual(await processesMentioning(workDir), [], 'the child was killed');
    const again = await ts.api.delete(`/api/audio/jobs/${first.id}`, { token: rep.token });
    assert.deepEqual([again.status, again.body.error], [409, 'audio.job_finished']);

    const thirdRes = await third;
    assert.equal(thirdRes.status, 200, thirdRes.text);
    const secondDone = await waitForState(rep.token, second.id, (j) => j.state === 'done');
    assert.ok(secondDone);
    const after = await counts();
    assert.equal(after.transcriptions, before.transcriptions + 2, 'the cancelled job stored nothing');
    assert.equal(after.jobs, before.jobs + 3);
  });

  test('a restart stops a running job and takes it up again: it finishes, never stuck running', async () => {
    await setQuality('accurate');
    const before = await counts();
    const started = (await upload(rep.token, fx.files['long-mono.wav']!, { async: 'true' })).body.data;
    await waitForState(rep.token, started.id, (j) => j.state === 'running' && j.stage === 'transcribing');
    const workDir = path.join(ts.dataDir, 'audio', 'work', String(started.id));
    await ts.restart();
    assert.deepEqual(await processesMentioning(workDir), [], 'stopping the server killed whisper.cpp');
    await setQuality('fast');
    const after = await waitForState(rep.token, started.id, (j) => j.state !== 'queued' && j.state !== 'running');
    assert.equal(after.state, 'done', JSON.stringify(after));
    assert.equal((await counts()).transcriptions, before.transcriptions + 1, 'stored once');
    // The job's audio is removed just after its end is stored (jobs.service.ts): wait for it rather than race it.
    await until('the job’s audio to be removed', async () => ((await leftovers()).length === 0 ? true : undefined));
    const next = await upload(rep.token, fx.files['call-mono.wav']!);
    assert.equal(next.status, 200, 'the restarted server transcribes again');
  });
});
