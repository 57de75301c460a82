// Coaching reports: made from a call (figures and structured facts in code, the rest by the chat model when one
// answers), stored with the rep's review items and the draft questions, and read back for the rep (their own only)
// and for admins (every report; the audio only when coaching_admin_listen is on).
import type { Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import type { Page } from '../../contract/envelope.js';
import type { Citation, CoachingParts, CoachingRecording, CoachingReport, CoachingReportSummary, FactCheck, Objection } from '../../contract/coaching.js';
import { CoachingErrorCode } from '../../contract/coaching.js';
import { AppError, notFound } from '../http/errors.js';
import { now } from '../db/time.js';
import { LARGE_TRANSCRIPT_SEGMENTS, offload } from '../workers/pool.js';
import { readConfigValue } from '../system/config.service.js';
import { notify } from '../notifications/notifications.service.js';
import { chunksAbout, chunksForModel, labelledSegments, productOfCall, resolveCall } from './call-context.js';
import { checkStructuredFacts } from './fact-checks.js';
import { analyseWithModel } from './model-analysis.js';
import { pickPractice } from './practice.js';
import { draftQuestions } from './drafts.js';
import { rolePlayInstructions, scenarioOf } from './role-play.js';
import { atTime, type RecordingLink, type RecordingLinks } from './recording-links.js';
import {
  draftsOfReport,
  findReport,
  insertDrafts,
  insertReport,
  insertReviewItems,
  listReports,
  reportIdOfJob,
  reviewItemsOfReport,
  type NewDraft,
  type ReportBody,
  type StoredReport,
} from './coaching.repository.js';
import type { CallInput, ReportFilter } from './coaching.schema.js';

export type Reader = Pick<User, 'id' | 'role'>;

/** The default domain of a draft: the knowledge source's domain of the chunk it cites, else "product". */
async function draftDomain(db: Db, citations: Citation[]): Promise<string> {
  const chunk = citations.find((c) => c.type === 'chunk' && c.source.type === 'knowledge');
  if (chunk?.type !== 'chunk') return 'product';
  const row: { domain: string } | undefined = await db('knowledge_sources').where({ id: chunk.source.id }).first('domain');
  return row?.domain || 'product';
}

function partsOf(productKnown: boolean, modelComplete: boolean, objections: Objection[]): CoachingParts {
  return {
    figures: 'done',
    structured_facts: productKnown ? 'done' : 'no_product',
    text_facts: modelComplete ? 'done' : 'needs_model',
    objections: modelComplete ? 'done' : 'needs_model',
    practice: modelComplete ? 'done' : 'partial',
    scenario: objections.length ? 'done' : modelComplete ? 'no_objections' : 'needs_model',
  };
}

/**
 * Analyses the caller's call and stores the report with its practice items; returns the report's id. With a job key,
 * once: a run taken up again (its node died) returns the report the first run committed.
 */
export async function createReport(db: Db, user: Reader, input: CallInput, { signal, jobKey = null }: { signal?: AbortSignal; jobKey?: string | null } = {}): Promise<number> {
  const made = jobKey === null ? undefined : await reportIdOfJob(db, jobKey);
  if (made !== undefined) return made;
  const { transcription, source } = await resolveCall(db, user.id, input);
  const { segments, speakers } = labelledSegments(transcription, input.rep_speaker);
  const repSegments = segments.filter((s) => s.speaker === input.rep_speaker);
  const figures = await offload('figures', transcription.segments, transcription.segments.length >= LARGE_TRANSCRIPT_SEGMENTS);
  const found = await productOfCall(db, input.product_id, segments.map((s) => s.text).join('\n'));
  const product = found?.names.product ?? null;
  const productChunks = found ? await chunksAbout(db, found.names) : [];
  const structured = found ? checkStructuredFacts(found.names, productChunks, repSegments) : [];

  const model = await analyseWithModel(db, {
    segments,
    repSpeaker: input.rep_speaker,
    product,
    chunks: () => chunksForModel(db, productChunks, repSegments.map((s) => s.text).join(' ')),
    known: structured,
    userId: user.id,
    signal,
  });
  const facts: FactCheck[] = [...structured, ...model.facts].map((f, i) => ({ id: `fact-${i + 1}`, ...f }));
  const objections: Objection[] = model.objections.map((o, i) => ({ id: `objection-${i + 1}`, ...o }));
  const misstated = facts.filter((f) => f.verdict === 'misstated');
  const repFigures = figures.speakers.find((s) => s.speaker === input.rep_speaker) ?? null;
  const productRef = product && { id: product.id, code: product.code, name: product.name, detected: found!.detected };
  const parts = partsOf(product !== null, model.run.status === 'complete', objections);
  const createdAt = now();

  const store = () => db.transaction(async (trx) => {
    const body: ReportBody = {
      source,
      transcription: {
        id: transcription.id,
        revision: transcription.revision,
        filename: transcription.filename,
        language: transcription.language,
        duration_seconds: transcription.audio?.duration ?? null,
        route_name: transcription.route.name,
        route_is_local: transcription.route.is_local,
        left_local: transcription.left_local,
      },
      customer_speakers: speakers.filter((s) => s !== input.rep_speaker),
      product: productRef,
      figures,
      rep_figures: repFigures,
      objections,
      facts,
      practice: pickPractice({ productName: product?.name ?? null, facts, objections, figures, rep: repFigures, repSegments, modelPractice: model.practice }),
      // The scenario needs the report's id for its launch bodies: set right after the insert.
      scenario: null,
      parts,
      needs_model: (Object.keys(parts) as (keyof CoachingParts)[]).filter((k) => parts[k] === 'needs_model' || parts[k] === 'partial'),
      model: model.run,
    };
    const reportId = await insertReport(trx, {
      user_id: user.id,
      transcription_id: transcription.id,
      transcript_revision: transcription.revision,
      task_id: source.task_id,
      run_id: source.run_id,
      rep_speaker: input.rep_speaker,
      product_id: product?.id ?? null,
      filename: transcription.filename,
      objection_count: objections.length,
      misstated_count: misstated.length,
      model_status: model.run.status,
      body,
      created_at: createdAt,
      job_key: jobKey,
    });
    const scenario = scenarioOf(reportId, productRef, objections, facts);
    if (scenario) await trx('coaching_reports').where({ id: reportId }).update({ body: JSON.stringify({ ...body, scenario }) });
    await insertReviewItems(
      trx,
      misstated.map((f) => ({
        user_id: user.id,
        report_id: reportId,
        finding_id: f.id,
        body: { label: f.label, claim: f.claim, stated: f.stated, correct: f.correct, explanation: f.explanation, segments: f.segments, citations: f.citations },
        created_at: createdAt,
      })),
    );
    const drafts = draftQuestions(product?.name ?? null, facts);
    const rows: NewDraft[] = [];
    // One after the other: a transaction is one connection.
    for (const { finding_ids, segments: refs, citations, ...question } of drafts) {
      rows.push({ report_id: reportId, user_id: user.id, domain: await draftDomain(trx, citations), ...question, provenance: { finding_ids, segments: refs, citations }, created_at: createdAt });
    }
    await insertDrafts(trx, rows);
    return { reportId, drafts: drafts.length };
  });
  // Two runs of one job at once (a node that lost its lease still finishing): the job key lets one report in.
  const id = await store().catch(async (err) => {
    const other = jobKey === null ? undefined : await reportIdOfJob(db, jobKey);
    if (other === undefined) throw err;
    return { reportId: other, drafts: 0 };
  });
  if (id.drafts) {
    await notify.admins(db, {
      title: '通话辅导生成了待审核的题目草稿',
      content: `辅导报告 #${id.reportId}（${transcription.filename}）根据说错的产品事实生成了 ${id.drafts} 道题目草稿，审核通过后才会进入题库。`,
      link: '/coaching/question-drafts',
    });
  }
  return id.reportId;
}

/** The report if the reader may see it: the rep's own, or any report for an admin; 404 otherwise. */
export async function visibleReport(db: Db, reader: Reader, id: number): Promise<StoredReport> {
  const stored = await findReport(db, id);
  if (!stored || (reader.role !== 'admin' && stored.summary.user.id !== reader.id)) throw notFound('Coaching report');
  return stored;
}

/** Whether the reader may listen to the report's call: the rep always, an admin only when the system allows it. */
export async function mayListen(db: Db, reader: Reader, stored: StoredReport): Promise<boolean> {
  return stored.summary.user.id === reader.id || (reader.role === 'admin' && (await readConfigValue<boolean>(db, 'coaching_admin_listen')));
}

export const adminListenOff = () =>
  new AppError(403, CoachingErrorCode.adminListenOff, "Listening to a rep's call is off for administrators (system parameter coaching_admin_listen)");

async function recordingFor(db: Db, links: RecordingLinks, reader: Reader, stored: StoredReport): Promise<{ recording: CoachingRecording; link: RecordingLink | null }> {
  const row: { recording: string | null } | undefined = await db('audio_transcriptions').where({ id: stored.summary.transcription_id }).first('recording');
  if (!row?.recording) return { recording: { available: false, url: null, expires_at: null, reason: 'not_kept' }, link: null };
  if (!(await mayListen(db, reader, stored))) return { recording: { available: false, url: null, expires_at: null, reason: 'admin_listen_off' }, link: null };
  const link = links.sign(stored.summary.id, reader.id);
  return { recording: { available: true, url: link.url, expires_at: link.expires_at, reason: null }, link };
}

/** Every segment reference in the value gets the reader's link to the audio at its time (or null). */
export function withAudioLinks<T>(value: T, link: RecordingLink | null): T {
  if (Array.isArray(value)) return value.map((v) => withAudioLinks(v, link)) as T;
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, withAudioLinks(v, link)] as const);
  const out = Object.fromEntries(entries) as Record<string, unknown>;
  if ('audio_url' in out && typeof out.start === 'number' && typeof out.end === 'number' && 'quote' in out) {
    out.audio_url = link ? atTime(link, out.start, out.end) : null;
  }
  return out as T;
}

/** The link for the reader to the report's audio, or null when not kept or not allowed. */
export async function readerLink(db: Db, links: RecordingLinks, reader: Reader, stored: StoredReport): Promise<RecordingLink | null> {
  return (await recordingFor(db, links, reader, stored)).link;
}

export async function readReport(db: Db, links: RecordingLinks, reader: Reader, id: number): Promise<CoachingReport> {
  const stored = await visibleReport(db, reader, id);
  const [{ recording, link }, reviewItems, drafts] = await Promise.all([recordingFor(db, links, reader, stored), reviewItemsOfReport(db, id), draftsOfReport(db, id)]);
  const report: CoachingReport = {
    ...stored.summary,
    ...stored.body,
    rep_speaker: stored.rep_speaker,
    recording,
    review_items: reviewItems,
    question_drafts: drafts,
  };
  return withAudioLinks(report, link);
}

export function listReportsFor(db: Db, reader: Reader, filter: ReportFilter): Promise<Page<CoachingReportSummary>> {
  return listReports(db, reader.role === 'admin' ? undefined : reader.id, filter);
}

/**
 * The role-play the coach plays for a report (POST /api/ai-chat/message with context.coaching_report_id, or the
 * scenario quick action): 404 for a report the reader may not see, 400 `coaching.no_scenario` when it has no
 * objections to play.
 */
export async function rolePlayOf(db: Db, reader: Reader, reportId: number): Promise<{ instructions: string; productId: number | null }> {
  const stored = await visibleReport(db, reader, reportId);
  const scenario = stored.body.scenario;
  if (!scenario) {
    throw new AppError(400, CoachingErrorCode.noScenario, `Coaching report ${reportId} has no customer objections to role-play (${stored.body.parts.objections === 'needs_model' ? 'no chat model analysed the call' : 'the call had none'})`);
  }
  return { instructions: rolePlayInstructions(reportId, scenario), productId: scenario.product?.id ?? null };
}
