// Sync beyond the catalog and exam records (docs/sync.md). Down, central wins: company introduction, system
// parameters and model/audio routes marked for branches, approved knowledge with its chunks (searchable offline),
// notifications (a paper published centrally notifies the branch's employees). Up, merged once: course progress and
// its points, the mistake book and study notes (their deletions too), media suggested at the branch (the file by resumable upload).
// Central and branch are real server processes on loopback (central on PostgreSQL in the PostgreSQL pass).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { startNode, type Node } from '../support/sync-nodes.js';
import { usingPostgres } from '../support/server.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import type { Question } from '../../contract/exams.js';
import { answerSheet, questionBody, uniqueDomain } from './exams-fixtures.js';
import { approve, form, settledExtraction, sha256, uploadOk } from './media-fixtures.js';

let central: Node;
let branch: Node;
let proxy: TcpProxy;
const PASSWORD = 'content-pass-1';
const SECRET = 'sk-central-route-key-0042';

async function ok(res: { status: number; text: string; body: { data: unknown } }, status = 200) {
  assert.equal(res.status, status, res.text);
  return res.body.data as never;
}

const run = async () => ok(await branch.api.post('/api/sync/run', { token: branch.adminToken })) as Promise<{ pulled: number; pushed: number; conflicts: number; files: number }>;
const setConfig = (node: Node, configs: Record<string, unknown>) => node.api.put('/api/system/config', { token: node.adminToken, body: { configs } });
const search = async (node: Node, token: string, q: string) =>
  (await ok(await node.api.get(`/api/knowledge/search?q=${encodeURIComponent(q)}`, { token }))) as { content: string; source: { type: string; title: string } }[];
const routes = async (node: Node) => (await ok(await node.api.get('/api/ai/routes', { token: node.adminToken }))) as { id: number; name: string; api_key: string; has_api_key: boolean; for_branches: boolean }[];

describe(`sync beyond catalog and records (central on ${usingPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  after(async () => {
    await proxy?.close();
    await branch?.close();
    await central?.close();
  });

  describe('content down', () => {
    let dora: string;
    let chatRouteId: number;
    let harbourId: number;

    before(async () => {
      central = await startNode({ postgres: usingPostgres });
      branch = await startNode({ postgres: false });
      proxy = await startTcpProxy(central.port);
      await ok(await central.api.post('/api/system/users', { token: central.adminToken, body: { username: 'dora', password: PASSWORD, full_name: 'Dora Branch', role: 'employee' } }), 201);
      // Central content: the company introduction, a parameter marked for branches, routes, knowledge, a media's text.
      await ok(await setConfig(central, { company_intro_content: '# 恒信总部介绍\n\n总部统一发布。', audio_local_quality: 'fast', branch_parameters: ['audio_local_quality'] }));
      await ok(await setConfig(central, { coaching_admin_listen: true }));
      const route = { kind: 'chat', provider: 'openai-compatible', base_url: 'https://llm.example.com/v1', api_key: SECRET, model: 'central-model' };
      chatRouteId = ((await ok(await central.api.post('/api/ai/routes', { token: central.adminToken, body: { ...route, name: 'Central chat', for_branches: true } }), 201)) as { id: number }).id;
      await ok(await central.api.post('/api/ai/routes', { token: central.adminToken, body: { ...route, name: 'Headquarters only' } }), 201);
      await fs.mkdir(central.dataDir + '/knowledge', { recursive: true });
      await fs.writeFile(path.join(central.dataDir, 'knowledge', 'harbour.md'), '# Harbour policy\n\n## Mooring\n\nEvery zeppelinmooring request is logged by the harbour desk.\n');
      const scanned = (await ok(await central.api.post('/api/knowledge/scan', { token: central.adminToken }))) as { results: { file_path: string; source_id: number }[] };
      harbourId = scanned.results.find((r) => r.file_path === 'harbour.md')!.source_id;
      await ok(await central.api.post(`/api/knowledge/audit/${harbourId}`, { token: central.adminToken, body: { action: 'approve' } }));
      const mediaId = await uploadOk(central.api, central.adminToken, 'manual.txt', new TextEncoder().encode('Quokkaferry timetables are printed every Monday.\n'));
      await approve(central.api, central.adminToken, mediaId);
      assert.equal((await settledExtraction(central.api, central.adminToken, mediaId)).extraction.state, 'done');

      const { enrolment_token } = (await ok(await central.api.post('/api/sync/devices', { token: central.adminToken, body: { name: 'Content laptop' } }), 201)) as { enrolment_token: string };
      await ok(await branch.api.put('/api/sync/config', { token: branch.adminToken, body: { central_url: proxy.url, enrolment_token } }));
      await run();
      dora = await branch.api.login('dora', PASSWORD);
    });
    test('the company introduction and the parameters marked for branches come down; the others stay local', async () => {
      const intro = (await ok(await branch.api.get('/api/company-train', { token: dora }))) as { content: string };
      assert.equal(intro.content, '# 恒信总部介绍\n\n总部统一发布。');
      const config = (await ok(await branch.api.get('/api/system/config', { token: branch.adminToken }))) as Record<string, unknown>;
      assert.equal(config.audio_local_quality, 'fast');
      assert.equal(config.coaching_admin_listen, false, 'not marked for branches');
      await ok(await setConfig(central, { audio_local_quality: 'accurate', company_intro_content: 'Updated at headquarters' }));
      await run();
      const updated = (await ok(await branch.api.get('/api/system/config', { token: branch.adminToken }))) as Record<string, unknown>;
      assert.equal(updated.audio_local_quality, 'accurate');
      assert.equal(updated.company_intro_content, 'Updated at headquarters');
    });

    test('a route marked for branches arrives with its key, which the branch API never shows in clear', async () => {
      const local = (await routes(branch)).filter((r) => r.name === 'Central chat' || r.name === 'Headquarters only');
      assert.deepEqual(local.map((r) => r.name), ['Central chat']);
      assert.equal(local[0]!.has_api_key, true);
      assert.notEqual(local[0]!.api_key, SECRET);
      assert.ok(!JSON.stringify(await ok(await branch.api.get(`/api/ai/routes/${local[0]!.id}`, { token: branch.adminToken }))).includes(SECRET));
      // Stored as the branch stores its own routes' keys, so the route works offline.
      const stored = (await branch.database()('ai_routes').where({ name: 'Central chat' }).first('api_key')) as { api_key: string };
      assert.equal(stored.api_key, SECRET);
      // No longer marked: removed from the branch at the next sync.
      await ok(await central.api.put(`/api/ai/routes/${chatRouteId}`, { token: central.adminToken, body: { for_branches: false } }));
      await run();
      assert.deepEqual((await routes(branch)).filter((r) => r.name === 'Central chat'), []);
    });

    test('approved knowledge and the text of approved media are searchable on the branch, offline', async () => {
      await central.stop();
      try {
        const knowledge = await search(branch, dora, 'zeppelinmooring');
        assert.equal(knowledge.length, 1);
        assert.equal(knowledge[0]!.source.type, 'knowledge');
        const media = await search(branch, dora, 'quokkaferry');
        assert.equal(media.length, 1);
        assert.deepEqual(media[0]!.source, { ...media[0]!.source, type: 'media', title: 'manual.txt' });
      } finally {
        await central.start();
        proxy.target = central.port;
      }
    });

    test('a formal exam published centrally notifies the branch employees after the sync, linking to the branch paper', async () => {
      const domain = uniqueDomain('notify');
      await ok(await central.api.post('/api/exam/questions', { token: central.adminToken, body: questionBody(domain, 'single') }), 201);
      await ok(
        await central.api.post('/api/exam/papers', {
          token: central.adminToken,
          body: { name: 'Published at headquarters', type: 'formal', domain, question_count: 1, total_score: 100, pass_score: 60, duration_minutes: 10, randomize: false },
        }),
        201,
      );
      const before = (await ok(await branch.api.get('/api/notifications', { token: dora }))) as { type: string }[];
      assert.equal(before.filter((n) => n.type === 'exam_published').length, 0);
      await run();
      const after = (await ok(await branch.api.get('/api/notifications', { token: dora }))) as { type: string; title: string; link: string; read: boolean }[];
      const published = after.filter((n) => n.type === 'exam_published');
      assert.equal(published.length, 1);
      assert.match(published[0]!.title, /Published at headquarters/);
      assert.equal(published[0]!.read, false);
      const papers = (await ok(await branch.api.get('/api/exam/papers', { token: branch.adminToken }))) as { id: number; name: string }[];
      assert.equal(published[0]!.link, `/exams/${papers.find((p) => p.name === 'Published at headquarters')!.id}`);
      // Read on the branch stays read; a second sync brings nothing twice.
      await ok(await branch.api.put('/api/notifications/read-all', { token: dora }));
      await run();
      const again = (await ok(await branch.api.get('/api/notifications', { token: dora }))) as { type: string; read: boolean }[];
      assert.deepEqual(again.filter((n) => n.type === 'exam_published').map((n) => n.read), [true]);
    });

    test('knowledge that stops being approved centrally (its file changed, pending again) leaves the branch search', async () => {
      await fs.writeFile(path.join(central.dataDir, 'knowledge', 'harbour.md'), '# Harbour policy\n\nRewritten, waiting for review.\n');
      const rescanned = (await ok(await central.api.post('/api/knowledge/scan', { token: central.adminToken }))) as { results: { source_id: number; change?: string }[] };
      assert.equal(rescanned.results.find((r) => r.source_id === harbourId)?.change, 'changed');
      await run();
      assert.deepEqual(await search(branch, dora, 'zeppelinmooring'), []);
    });
  });

  describe('state up', () => {
    let dora: string;
    let doraCentral: string;
    let courseId: number;

    const centralGet = async <T>(path: string, token = doraCentral) => (await ok(await central.api.get(path, { token }))) as T;

    before(async () => {
      // The first describe's nodes and enrolment are reused (node:test runs describes in order).
      dora = await branch.api.login('dora', PASSWORD);
      doraCentral = await central.api.login('dora', PASSWORD);
      courseId = ((await ok(await central.api.post('/api/courses', { token: central.adminToken, body: { title: 'Harbour safety' } }), 201)) as { id: number }).id;
      const domain = uniqueDomain('practice');
      for (let i = 0; i < 2; i++) await ok(await central.api.post('/api/exam/questions', { token: central.adminToken, body: questionBody(domain, 'single') }), 201);
      await ok(await central.api.post('/api/exam/papers', { token: central.adminToken, body: { name: 'Practice at the branch', type: 'self_test', domain, question_count: 2, total_score: 100, pass_score: 60, duration_minutes: 10 } }), 201);
      await run();
    });

    test('course progress goes up once: completed centrally, its points awarded once', async () => {
      const local = ((await ok(await branch.api.get('/api/courses', { token: dora }))) as { items?: { id: number; title: string }[] } | { id: number; title: string }[]);
      const list = Array.isArray(local) ? local : local.items!;
      const course = list.find((c) => c.title === 'Harbour safety')!;
      const done = (await ok(await branch.api.put(`/api/learning/progress/${course.id}`, { token: dora, body: { status: 'completed' } }))) as { points_awarded: number };
      assert.ok(done.points_awarded > 0);
      const pointsBefore = (await centralGet<{ total: number }>('/api/learning/points')).total;
      const first = await run();
      assert.equal(first.conflicts, 0);
      await run();
      const progress = await centralGet<{ status: string }>(`/api/learning/progress/${courseId}`);
      assert.equal(progress.status, 'completed');
      assert.equal((await centralGet<{ total: number }>('/api/learning/points')).total, pointsBefore + done.points_awarded);
      // Marked viewed again on the branch: completed stays completed, no second award.
      await ok(await branch.api.put(`/api/learning/progress/${course.id}`, { token: dora, body: { status: 'viewed' } }));
      await run();
      assert.equal((await centralGet<{ status: string }>(`/api/learning/progress/${courseId}`)).status, 'completed');
      assert.equal((await centralGet<{ total: number }>('/api/learning/points')).total, pointsBefore + done.points_awarded);
    });

    test('mistakes of a practice on the branch reach the central mistake book', async () => {
      const bank = (await ok(await branch.api.get('/api/exam/questions', { token: branch.adminToken }))) as Question[];
      const papers = (await ok(await branch.api.get('/api/exam/papers', { token: branch.adminToken }))) as { id: number; name: string }[];
      const paper = papers.find((p) => p.name === 'Practice at the branch')!;
      const started = (await ok(await branch.api.post('/api/exam/start', { token: dora, body: { paper_id: paper.id } }))) as { session_id: string; questions: { id: number }[] };
      const answers = answerSheet(started.questions as never, bank, () => false);
      await ok(await branch.api.post('/api/exam/submit', { token: dora, body: { session_id: started.session_id, answers, time_spent_sec: 5 } }));
      const stems = new Set(started.questions.map((q) => bank.find((b) => b.id === q.id)!.stem));
      assert.equal((await run()).conflicts, 0);
      const mistakes = await centralGet<{ items: { question: { stem: string }; stem?: string; wrong_count: number }[] } | { stem: string; wrong_count: number }[]>('/api/exam/mistakes');
      const entries = (Array.isArray(mistakes) ? mistakes : mistakes.items) as { question?: { stem: string }; stem?: string; wrong_count: number }[];
      const found = entries.filter((m) => stems.has(m.question?.stem ?? m.stem ?? ''));
      assert.equal(found.length, 2);
      assert.ok(found.every((m) => m.wrong_count === 1));
      await run();
      const again = await centralGet<typeof mistakes>('/api/exam/mistakes');
      const entriesAgain = (Array.isArray(again) ? again : again.items) as { question?: { stem: string }; stem?: string; wrong_count: number }[];
      assert.ok(entriesAgain.filter((m) => stems.has(m.question?.stem ?? m.stem ?? '')).every((m) => m.wrong_count === 1), 'merged, not added twice');
    });

    test('study notes go up and the later edit wins', async () => {
      const note = (await ok(await branch.api.post('/api/notes', { token: dora, body: { title: 'Tide table', content: 'first' } }), 201)) as { id: number };
      await run();
      const notes = async () => {
        const page = await centralGet<{ items?: { title: string; content: string }[] } | { title: string; content: string }[]>('/api/notes');
        return (Array.isArray(page) ? page : page.items!).filter((n) => n.title === 'Tide table');
      };
      assert.deepEqual((await notes()).map((n) => n.content), ['first']);
      await ok(await branch.api.put(`/api/notes/${note.id}`, { token: dora, body: { content: 'second' } }));
      await run();
      assert.deepEqual((await notes()).map((n) => n.content), ['second']);
    });

    test('a note and a mistake-book entry deleted on the branch are deleted centrally, unless changed there since', async () => {
      type NoteItem = { id: number; title: string; content: string };
      const centralNotes = async () => {
        const page = await centralGet<{ items?: NoteItem[] } | NoteItem[]>('/api/notes');
        return (Array.isArray(page) ? page : page.items!).filter((n) => n.title === 'Harbour log' || n.title === 'Pier notes');
      };
      const write = async (title: string) => ((await ok(await branch.api.post('/api/notes', { token: dora, body: { title, content: 'from the branch' } }), 201)) as { id: number }).id;
      const harbour = await write('Harbour log');
      const pier = await write('Pier notes');
      await run();
      assert.deepEqual((await centralNotes()).map((n) => n.title).sort(), ['Harbour log', 'Pier notes']);

      await ok(await branch.api.delete(`/api/notes/${harbour}`, { token: dora }));
      await ok(await branch.api.delete(`/api/notes/${pier}`, { token: dora }));
      // Pier notes is edited at headquarters after its deletion on the branch: the later change wins.
      const pierCentral = (await centralNotes()).find((n) => n.title === 'Pier notes')!;
      await ok(await central.api.put(`/api/notes/${pierCentral.id}`, { token: doraCentral, body: { content: 'kept at headquarters' } }));
      assert.equal((await run()).conflicts, 0);
      assert.deepEqual((await centralNotes()).map((n) => [n.title, n.content]), [['Pier notes', 'kept at headquarters']]);

      // Entries are told apart by their question's gid (two practice questions may share a stem).
      const bookOf = async (node: Node, token: string) => {
        const page = (await ok(await node.api.get('/api/exam/mistakes', { token }))) as { items?: { id: number; question_id: number }[] } | { id: number; question_id: number }[];
        const entries = Array.isArray(page) ? page : page.items!;
        const gids = new Map(((await node.database()('questions').whereIn('id', entries.map((e) => e.question_id)).select('id', 'gid')) as { id: number; gid: string }[]).map((q) => [Number(q.id), q.gid]));
        return entries.map((e) => ({ id: e.id, question: gids.get(e.question_id)! }));
      };
      const [gone, ...kept] = await bookOf(branch, dora);
      assert.ok(gone && kept.length, 'the practice above left entries on the branch');
      assert.deepEqual((await bookOf(central, doraCentral)).map((e) => e.question).sort(), [gone, ...kept].map((e) => e.question).sort());
      await ok(await branch.api.delete(`/api/exam/mistakes/${gone.id}`, { token: dora }));
      assert.equal((await run()).conflicts, 0);
      assert.deepEqual((await bookOf(central, doraCentral)).map((e) => e.question).sort(), kept.map((e) => e.question).sort(), 'only the entry deleted on the branch is gone');
      await run();
      assert.equal((await bookOf(central, doraCentral)).length, kept.length, 'the next sync changes nothing');
    });

    test('a media suggested on the branch goes up pending audit; a cut upload resumes and the media arrives once', async () => {
      const data = new Uint8Array(2_000_000).map((_, i) => (i * 7) % 251);
      const res = await branch.api.post('/api/company-train/suggest-material', { token: dora, form: form({ remark: 'from the branch' }, { name: 'branch-flyer.pdf', data }) });
      assert.equal(res.status, 201, res.text);
      const cut = proxy.cutNext({ request: 'PUT /api/sync/uploads/', afterBytes: 0, afterRequestBytes: 700_000 });
      const failed = await branch.api.post('/api/sync/run', { token: branch.adminToken });
      await cut;
      assert.equal(failed.status, 502, failed.text);
      const summary = await run();
      assert.equal(summary.conflicts, 0);
      const resumed = proxy.requests.filter((r) => r.startsWith('PUT /api/sync/uploads/')).at(-1)!;
      const from = Number(/content-range: bytes (\d+)-/i.exec(resumed)?.[1]);
      assert.ok(from > 0 && from < data.length, resumed);
      await run();
      const pending = (await ok(await central.api.get('/api/media/audit-list?status=pending', { token: central.adminToken }))) as { items: { id: number; filename: string; remark: string }[] };
      const flyers = pending.items.filter((m) => m.filename === 'branch-flyer.pdf');
      assert.equal(flyers.length, 1);
      assert.equal(flyers[0]!.remark, 'from the branch');
      const stored = (await central.database()('media_files').where({ id: flyers[0]!.id }).first('storage_key', 'gid')) as { storage_key: string; gid: string };
      assert.equal(sha256(await fs.readFile(path.join(central.dataDir, 'media', 'files', stored.storage_key))), sha256(data));
      const local = (await branch.database()('media_files').where({ filename: 'branch-flyer.pdf' }).first('gid')) as { gid: string };
      assert.equal(stored.gid, local.gid);
      const notices = (await ok(await central.api.get('/api/notifications', { token: central.adminToken }))) as { title: string; content: string }[];
      assert.ok(notices.some((n) => n.content.includes('branch-flyer.pdf')));
      // Approved centrally: the branch's own row becomes approved with the bytes it has, nothing downloaded.
      await approve(central.api, central.adminToken, flyers[0]!.id);
      assert.equal((await run()).files, 0);
      const approved = (await branch.database()('media_files').where({ gid: local.gid }).first('status')) as { status: string };
      assert.equal(approved.status, 'approved');
    });

    test('a media suggested on the branch and rejected centrally is rejected on the branch too, with the reason', async () => {
      const res = await branch.api.post('/api/company-train/suggest-material', { token: dora, form: form({ remark: 'old prices' }, { name: 'old-rates.pdf', data: new Uint8Array(3_000).fill(7) }) });
      assert.equal(res.status, 201, res.text);
      await run();
      const local = (await branch.database()('media_files').where({ filename: 'old-rates.pdf' }).first('gid', 'status')) as { gid: string; status: string };
      assert.equal(local.status, 'pending', 'still waiting for the central audit');
      const central_ = (await central.database()('media_files').where({ gid: local.gid }).first('id')) as { id: number };
      const rejected = await central.api.post(`/api/media/audit/${central_.id}`, { token: central.adminToken, body: { action: 'reject', reject_reason: '价格已过期' } });
      assert.equal(rejected.status, 200, rejected.text);
      await run();
      const after = (await branch.database()('media_files').where({ gid: local.gid }).first('status', 'reject_reason')) as { status: string; reject_reason: string };
      assert.deepEqual(after, { status: 'rejected', reject_reason: '价格已过期' });
    });
  });
});
