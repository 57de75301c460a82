// Inspections: a speaker-labelled call checked against the rule set that applies to its product, stored with the
// version it used; a failed critical rule becomes a review item for the rep and a notice for the admins. Run on
// request and by itself after every speaker-labelled transcription (when the rep can be told).
import type { Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import type { Page } from '../../contract/envelope.js';
import type { Evidence, Inspection, InspectionSummary } from '../../contract/compliance.js';
import { ComplianceErrorCode } from '../../contract/compliance.js';
import { WorkbenchErrorCode } from '../../contract/workbench.js';
import { AppError, fromDriverError, notFound } from '../http/errors.js';
import { now } from '../db/time.js';
import { readConfigValue } from '../system/config.service.js';
import { notify } from '../notifications/notifications.service.js';
import { complianceViolation } from '../notifications/messages.js';
import { insertReviewItems } from '../coaching/coaching.repository.js';
import { productOfCall } from '../coaching/call-context.js';
import { findProductRow, toProduct } from '../products/products.repository.js';
import type { Transcription } from '../../contract/audio.js';
import { inspectCall, toResult, type CallSegment } from './engine.js';
import { compiledVersion, ruleSetFor } from './rule-sets.service.js';
import { readTranscript } from './transcript-source.js';
import { secondOpinion } from './second-opinion.js';
import { LARGE_TRANSCRIPT_SEGMENTS, offload } from '../workers/pool.js';
import { coachingOfTranscription, findInspection, inspectionIdByDedupeKey, insertInspection, listInspections, toSummary, type StoredInspection, type StoredResult } from './compliance.repository.js';
import type { InspectInput, InspectionListInput } from './compliance.schema.js';
import type { InspectionLink, InspectionLinks } from './inspection-links.js';

export type Reader = Pick<User, 'id' | 'role'>;

const speakersRequired = (id: number) =>
  new AppError(
    400,
    WorkbenchErrorCode.speakersRequired,
    `Transcription ${id} has no speaker labels: a compliance inspection needs to know who is the rep. Transcribe the call with speakers (channels=rep,customer) on a route that separates them.`,
  );

/** Who the rep is: as asked, else as the call's coaching report says, else the speaker labelled `rep`. */
function repOf(asked: string | undefined, fromReport: string | undefined, speakers: string[]): string {
  const rep = asked ?? fromReport ?? (speakers.includes('rep') ? 'rep' : undefined);
  if (rep === undefined) {
    throw new AppError(400, ComplianceErrorCode.repUnknown, `The call's speakers (${speakers.join(', ')}) do not say who the rep is: name the rep's speaker in rep_speaker`, { speakers });
  }
  if (!speakers.includes(rep)) throw new AppError(400, ComplianceErrorCode.unknownSpeaker, `"${rep}" is not a speaker of this call; its speakers are ${speakers.map((s) => `"${s}"`).join(', ')}`, { speakers });
  return rep;
}

export interface InspectOptions {
  trigger: 'auto' | 'manual';
}

/**
 * One call's revision, checked as one rep under one version of one rule set (and one product), is one inspection:
 * a second request for it, simultaneous or later, answers the first one's id instead of storing it again with its
 * review items and admin notices.
 */
const dedupeKeyOf = (k: { ownerId: number; transcriptionId: number; revision: number; ruleSetId: number; ruleSetVersion: number; productId: number | null; repSpeaker: string }) =>
  [k.ownerId, k.transcriptionId, k.revision, k.ruleSetId, k.ruleSetVersion, k.productId ?? '', k.repSpeaker].join(':');

/**
 * Requests of this process for an inspection being made, per database: the same one waits for it (the unique key
 * covers other nodes).
 */
const inFlightOf = new WeakMap<Db, Map<string, Promise<number>>>();
const inFlightFor = (db: Db): Map<string, Promise<number>> => {
  let map = inFlightOf.get(db);
  if (!map) inFlightOf.set(db, (map = new Map()));
  return map;
};

/** Inspects one of the owner's calls and stores the result, once (see dedupeKeyOf); returns the inspection's id. */
export async function inspect(db: Db, ownerId: number, input: InspectInput, options: InspectOptions): Promise<number> {
  const source = await readTranscript(db, ownerId, input.transcription_id, input.revision);
  const segments: CallSegment[] = source.segments.flatMap((s, index) => (s.speaker !== undefined && s.text.trim() ? [{ index, start: s.start, end: s.end, speaker: s.speaker, text: s.text }] : []));
  if (!source.has_speakers || !segments.length) throw speakersRequired(input.transcription_id);
  const speakers = [...new Set(segments.map((s) => s.speaker))];
  const coaching = await coachingOfTranscription(db, input.transcription_id);
  const repSpeaker = repOf(input.rep_speaker, coaching?.rep_speaker, speakers);

  const productId = input.product_id ?? coaching?.product_id ?? undefined;
  if (input.product_id !== undefined && !(await findProductRow(db, input.product_id))) {
    throw new AppError(400, 'validation_failed', `Invalid product_id: product ${input.product_id} does not exist`, [{ path: 'product_id', message: 'unknown product' }]);
  }
  const found = await productOfCall(db, productId, segments.map((s) => s.text).join('\n'));
  const product = found?.names.product ?? null;

  const ruleSet = await ruleSetFor(db, product);
  const dedupeKey = dedupeKeyOf({ ownerId, transcriptionId: input.transcription_id, revision: source.revision, ruleSetId: ruleSet.id, ruleSetVersion: ruleSet.version, productId: product?.id ?? null, repSpeaker });
  const existing = await inspectionIdByDedupeKey(db, dedupeKey);
  if (existing !== undefined) return existing;
  const inFlight = inFlightFor(db);
  const running = inFlight.get(dedupeKey);
  if (running) return running;
  const made = (async () => {
    try {
      return await inspectAndStore(db, { ownerId, input, options, source, segments, repSpeaker, product, ruleSet, dedupeKey });
    } catch (err) {
      // Another node stored the same inspection first: its id is the answer.
      const stored = fromDriverError(err)?.status === 409 ? await inspectionIdByDedupeKey(db, dedupeKey) : undefined;
      if (stored === undefined) throw err;
      return stored;
    }
  })().finally(() => inFlight.delete(dedupeKey));
  inFlight.set(dedupeKey, made);
  return made;
}

interface Prepared {
  ownerId: number;
  input: InspectInput;
  options: InspectOptions;
  source: Awaited<ReturnType<typeof readTranscript>>;
  segments: CallSegment[];
  repSpeaker: string;
  product: NonNullable<Awaited<ReturnType<typeof productOfCall>>>['names']['product'] | null;
  ruleSet: Awaited<ReturnType<typeof ruleSetFor>>;
  dedupeKey: string;
}

async function inspectAndStore(db: Db, { ownerId, input, options, source, segments, repSpeaker, product, ruleSet, dedupeKey }: Prepared): Promise<number> {
  const callProduct = product && { name: product.name, code: product.code, risk_level: product.risk_level, cooling_off_days: product.cooling_off_days };
  // A long call is inspected in a worker thread, its rules compiled there; a short one with the cached compiled set.
  const checked =
    segments.length >= LARGE_TRANSCRIPT_SEGMENTS
      ? await offload('inspection', { rules: ruleSet.rules, segments, repSpeaker, product: callProduct }, true)
      : inspectCall(await compiledVersion(db, ruleSet, ruleSet.rules), segments, repSpeaker, callProduct);
  const results: StoredResult[] = checked.verdicts.map(toResult);
  const criticalFails = results.filter((r) => r.outcome === 'fail' && r.severity === 'critical');
  // Outside the transaction: the model may take a while, and its failure stores the inspection all the same.
  const opinion = await secondOpinion(db, { rules: ruleSet.rules, results, segments, repSpeaker, userId: ownerId });
  const owner = (await db('users').where({ id: ownerId }).first('username', 'full_name', 'department')) as { username: string; full_name: string | null; department: string | null };
  const at = now();

  const id = await db.transaction(async (trx) => {
    const id = await insertInspection(trx, {
      dedupe_key: dedupeKey,
      user_id: ownerId,
      transcription_id: input.transcription_id,
      revision: source.revision,
      rule_set_id: ruleSet.id,
      rule_set_version: ruleSet.version,
      product_id: product?.id ?? null,
      department: owner.department ?? '',
      filename: source.transcription.filename,
      rep_speaker: repSpeaker,
      score: checked.score,
      outcome: results.some((r) => r.outcome === 'fail') ? 'fail' : 'pass',
      critical_failures: criticalFails.length,
      customer_risk: checked.customerRisk,
      trigger: options.trigger,
      body: { product: product && { id: product.id, code: product.code, name: product.name, risk_level: product.risk_level }, results, second_opinion: opinion },
      created_at: at,
    });
    // Practice for the rep: each failed critical rule on the review list, as coaching's misstated facts are.
    const rule = (key: string) => checked.verdicts.find((v) => v.rule.key === key)!.rule;
    await insertReviewItems(
      trx,
      criticalFails.map((r) => ({
        user_id: ownerId,
        report_id: null,
        inspection_id: id,
        finding_id: `compliance.${r.rule_key}`,
        created_at: at,
        body: {
          label: r.name['zh-CN'],
          claim: r.evidence.find((e) => e.speaker === repSpeaker)?.quote ?? '',
          stated: r.note,
          correct: rule(r.rule_key).explanation['zh-CN'],
          explanation: rule(r.rule_key).explanation['zh-CN'],
          segments: r.evidence.map((e) => ({ index: e.segment_index, start: e.start, end: e.end, speaker: e.speaker, quote: e.quote, audio_url: null })),
          citations: [],
        },
      })),
    );
    return id;
  });
  if (criticalFails.length) {
    await notify.admins(db, complianceViolation({ id, filename: source.transcription.filename, rep: owner.full_name || owner.username }, criticalFails.map((r) => r.name)));
  }
  return id;
}

/**
 * After a transcription is stored: inspects it when it has speakers and the rep can be told (a `rep` label). A call
 * labelled only A/B waits for a coaching report or a request naming the rep.
 */
export async function inspectTranscribed(db: Db, userId: number, transcription: Transcription): Promise<number | null> {
  if (!transcription.has_speakers || !transcription.segments.some((s) => s.speaker === 'rep')) return null;
  return inspect(db, userId, { transcription_id: transcription.id }, { trigger: 'auto' });
}

/** The inspection if the reader may see it: the rep's own, or any for an admin; 404 otherwise. */
export async function visibleInspection(db: Db, reader: Reader, id: number): Promise<StoredInspection> {
  const stored = await findInspection(db, id);
  if (!stored || (reader.role !== 'admin' && stored.inspection.user.id !== reader.id)) throw notFound('Inspection');
  return stored;
}

/** The rep always; an admin when coaching_admin_listen is on (the same rule as coaching reports). */
export async function mayListen(db: Db, reader: Reader, stored: StoredInspection): Promise<boolean> {
  return stored.inspection.user.id === reader.id || (reader.role === 'admin' && (await readConfigValue<boolean>(db, 'coaching_admin_listen')));
}

/** The reader's link to the call's audio, or why there is none (the page says which, truthfully). */
async function linkFor(db: Db, links: InspectionLinks, reader: Reader, stored: StoredInspection): Promise<{ link: InspectionLink | null; reason: NonNullable<Inspection['recording']>['reason'] }> {
  if (!stored.local) return { link: null, reason: 'elsewhere' };
  const row = (await db('audio_transcriptions').where({ id: stored.inspection.transcription_id, user_id: stored.inspection.user.id }).first('recording')) as { recording: string | null } | undefined;
  if (!row?.recording) return { link: null, reason: 'not_kept' };
  if (!(await mayListen(db, reader, stored))) return { link: null, reason: 'admin_listen_off' };
  return { link: links.sign(stored.inspection.id, reader.id), reason: null };
}

export async function readInspection(db: Db, links: InspectionLinks, reader: Reader, id: number): Promise<Inspection> {
  const stored = await visibleInspection(db, reader, id);
  const { link, reason } = await linkFor(db, links, reader, stored);
  const audio = (e: Omit<Evidence, 'audio_url'>): Evidence => ({ ...e, audio_url: link ? `${link.url}#t=${e.start},${e.end}` : null });
  const ruleSet = (await db('compliance_rule_sets').where({ id: stored.inspection.rule_set_id }).first('name')) as { name: string } | undefined;
  return {
    ...stored.inspection,
    rule_set_name: ruleSet?.name ?? '',
    recording: { available: link !== null, reason },
    results: stored.inspection.results.map((r) => ({ ...r, evidence: r.evidence.map(audio) })),
    second_opinion: { ...stored.inspection.second_opinion, findings: stored.inspection.second_opinion.findings.map((f) => ({ ...f, evidence: f.evidence.map(audio) })) },
  };
}

export function listInspectionsFor(db: Db, reader: Reader, filter: InspectionListInput): Promise<Page<InspectionSummary>> {
  return listInspections(db, reader.role === 'admin' ? undefined : reader.id, filter);
}

export { toSummary };
