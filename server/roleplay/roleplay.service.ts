// Role-play scenarios (admins write them, everyone plays the active ones) and sessions (the player's own; admins
// read everyone's). A turn is the rep's words, their compliance flags and the customer's answer; finishing scores
// the rep's turns against the scenario's criteria and the compliance rules, and turns missed criteria into practice.
import type { Db } from '../db/knex.js';
import type { User } from '../../contract/users.js';
import type { Page } from '../../contract/envelope.js';
import { RoleplayErrorCode, type CriterionResult, type Scenario, type ScenarioStats, type Session, type SessionSummary, type Turn, type TurnReply } from '../../contract/roleplay.js';
import { AppError, notFound, validationFailed } from '../http/errors.js';
import { now } from '../db/time.js';
import { chatRouteOrder } from '../ai/chat-route-order.js';
import { streamChat } from '../ai/chat-client.js';
import { findProductRow } from '../products/products.repository.js';
import { compilePhrases, PhraseError } from '../compliance/phrases.js';
import { insertReviewItems, type NewReviewItem } from '../coaching/coaching.repository.js';
import { scenarioContext, promptProduct, type ScenarioContext } from './context.js';
import { customerMessages, scriptedReply } from './customer.js';
import { judgeByModel } from './judge.js';
import { REP, inspectConversation, judgeCriteria, scoreOf, turnFlags } from './scoring.js';
import { finishSession, findScenario, findSession, finishedReports, insertScenario, insertSession, listScenarios, listSessions, saveTurns, setPracticeItems, updateScenario, type StoredReport } from './roleplay.repository.js';
import type { ScenarioCreateInput, ScenarioUpdateInput, SessionListFilter } from './roleplay.schema.js';

export type Reader = Pick<User, 'id' | 'role'>;

const isAdmin = (reader: Reader) => reader.role === 'admin';

export const CUSTOMER_PURPOSE = 'roleplay_customer';

// Scenarios ------------------------------------------------------------------------------------------------------

async function checkScenario(db: Db, input: Partial<ScenarioCreateInput>): Promise<void> {
  if (input.product_id != null && !(await findProductRow(db, input.product_id))) {
    throw validationFailed(`Invalid product_id: product ${input.product_id} does not exist`, [{ path: 'product_id', message: 'unknown product' }]);
  }
  for (const [i, c] of (input.criteria ?? []).entries()) {
    try {
      compilePhrases(c.phrases ?? []);
    } catch (err) {
      if (!(err instanceof PhraseError)) throw err;
      throw new AppError(400, RoleplayErrorCode.invalidPhrase, `Criterion ${c.key}: ${err.message}`, [{ path: `criteria.${i}.phrases`, message: err.message }]);
    }
  }
}

export async function createScenario(db: Db, author: Reader, input: ScenarioCreateInput): Promise<Scenario> {
  await checkScenario(db, input);
  const id = await insertScenario(db, { ...input, product_id: input.product_id ?? null }, author.id, now());
  return (await findScenario(db, id))!;
}

export async function editScenario(db: Db, id: number, input: ScenarioUpdateInput): Promise<Scenario> {
  if (!(await findScenario(db, id))) throw notFound('Scenario');
  await checkScenario(db, input);
  await updateScenario(db, id, input, now());
  return (await findScenario(db, id))!;
}

/** Delete disables: sessions played on it keep their scenario. */
export async function disableScenario(db: Db, id: number): Promise<Scenario> {
  return editScenario(db, id, { status: 'inactive' });
}

/** Admins see every scenario; employees the active ones (any other is 404 to them). */
export async function readScenario(db: Db, reader: Reader, id: number): Promise<Scenario> {
  const scenario = await findScenario(db, id);
  if (!scenario || (!isAdmin(reader) && scenario.status !== 'active')) throw notFound('Scenario');
  return scenario;
}

export function scenariosFor(db: Db, reader: Reader, status: 'active' | 'inactive' | 'all' | undefined): Promise<Scenario[]> {
  if (!isAdmin(reader)) return listScenarios(db, 'active');
  return listScenarios(db, status === 'all' || status === undefined ? undefined : status);
}

/** Per criterion, the share of finished sessions that met it. */
export async function scenarioStats(db: Db, id: number): Promise<ScenarioStats> {
  const scenario = await findScenario(db, id);
  if (!scenario) throw notFound('Scenario');
  const reports = await finishedReports(db, id);
  const criteria = scenario.criteria.map((c) => {
    const met = reports.filter((r) => r.report?.criteria.some((x) => x.key === c.key && x.met)).length;
    return { key: c.key, label: c.label, met, finished: reports.length, rate: reports.length ? met / reports.length : 0 };
  });
  return { scenario_id: id, finished: reports.length, passed: reports.filter((r) => r.passed).length, criteria };
}

// Sessions -------------------------------------------------------------------------------------------------------

/** A model can play the customer when a chat route is configured and enabled. */
const modelCanRun = async (db: Db) => (await chatRouteOrder(db)).length > 0;

export async function startSession(db: Db, player: Reader, scenarioId: number): Promise<Session> {
  const scenario = await findScenario(db, scenarioId);
  if (!scenario) throw validationFailed(`Invalid scenario_id: scenario ${scenarioId} does not exist`, [{ path: 'scenario_id', message: 'unknown scenario' }]);
  if (scenario.status !== 'active') throw new AppError(409, RoleplayErrorCode.scenarioInactive, `Scenario ${scenarioId} is disabled: it cannot be practised any more`);
  const mode = (await modelCanRun(db)) ? 'model' : 'scripted';
  const id = await insertSession(db, { user_id: player.id, scenario_id: scenarioId, mode, turns: [{ index: 0, speaker: 'customer', text: scenario.opening }] }, now());
  return (await findSession(db, id))!;
}

/** The session if the reader may see it: the player's own, or any for an admin; 404 otherwise. */
export async function readSession(db: Db, reader: Reader, id: number): Promise<Session> {
  const session = await findSession(db, id);
  if (!session || (!isAdmin(reader) && session.user.id !== reader.id)) throw notFound('Session');
  return session;
}

export function sessionsFor(db: Db, reader: Reader, filter: SessionListFilter): Promise<Page<SessionSummary>> {
  return listSessions(db, { ...filter, user_id: isAdmin(reader) ? filter.user_id : reader.id });
}

/** Only the player takes turns in and finishes their own session. */
async function ownActiveSession(db: Db, player: Reader, id: number): Promise<Session> {
  const session = await findSession(db, id);
  if (!session || session.user.id !== player.id) throw notFound('Session');
  if (session.status !== 'active') throw sessionFinished(id);
  return session;
}

const sessionFinished = (id: number) => new AppError(409, RoleplayErrorCode.sessionFinished, `Session ${id} is finished: start a new session to practise again`);

// Two turns of one session at once would each answer the same history; the second waits for none and is refused.
const turnsInFlight = new Set<number>();

export interface TurnStart {
  session: Session;
  scenario: Scenario;
  context: ScenarioContext;
  repTurn: TurnReply['rep_turn'];
  /** The scripted customer's answer (also the model customer's fallback when the model fails before a word). */
  scripted: string;
  release(): void;
}

/** The player's active session with room for another rep turn (404, 409 session_finished or turn_limit otherwise). */
export async function openForTurn(db: Db, player: Reader, id: number): Promise<{ session: Session; scenario: Scenario; repCount: number }> {
  const session = await ownActiveSession(db, player, id);
  const scenario = (await findScenario(db, session.scenario_id))!;
  const repCount = session.turns.filter((t) => t.speaker === REP).length;
  if (repCount >= scenario.max_turns) {
    throw new AppError(409, RoleplayErrorCode.turnLimit, `This scenario allows ${scenario.max_turns} turns: finish the session to see the report`);
  }
  return { session, scenario, repCount };
}

/** Checks the turn may be taken and flags the rep's words; the caller answers it, then calls completeTurn. */
export async function beginTurn(db: Db, player: Reader, id: number, text: string): Promise<TurnStart> {
  const { session, scenario, repCount } = await openForTurn(db, player, id);
  if (turnsInFlight.has(id)) throw new AppError(409, 'conflict', 'The customer is still answering your previous turn');
  turnsInFlight.add(id);
  try {
    const context = await scenarioContext(db, scenario);
    const repTurn = { index: session.turns.length, speaker: 'rep' as const, text, flags: [] as TurnReply['rep_turn']['flags'] };
    repTurn.flags = turnFlags(context.rules, repTurn, context.product);
    return { session, scenario, context, repTurn, scripted: scriptedReply(scenario, repCount + 1), release: () => turnsInFlight.delete(id) };
  } catch (err) {
    turnsInFlight.delete(id);
    throw err;
  }
}

/** The model customer's answer, streamed to onToken; the scripted line when the model fails before its first word. */
export async function customerAnswer(db: Db, start: TurnStart, onToken: (text: string) => void, signal?: AbortSignal): Promise<string> {
  if (start.session.mode === 'scripted') {
    onToken(start.scripted);
    return start.scripted;
  }
  let started = false;
  try {
    const product = await promptProduct(db, start.context.product);
    const result = await streamChat(db, {
      messages: customerMessages(start.scenario, product, [...start.session.turns, start.repTurn]),
      onToken: (piece) => {
        started = true;
        onToken(piece);
      },
      signal,
      log: { user_id: start.session.user.id, purpose: CUSTOMER_PURPOSE },
    });
    return result.text.trim() || start.scripted;
  } catch (err) {
    if (started || signal?.aborted) throw err;
    onToken(start.scripted);
    return start.scripted;
  }
}

/** Stores the rep's turn and the customer's answer. */
export async function completeTurn(db: Db, start: TurnStart, customerText: string): Promise<TurnReply> {
  try {
    const customerTurn = { index: start.repTurn.index + 1, speaker: 'customer' as const, text: customerText };
    const turns: Turn[] = [...start.session.turns, start.repTurn, customerTurn];
    if (!(await saveTurns(db, start.session.id, turns, now()))) throw sessionFinished(start.session.id);
    return { rep_turn: start.repTurn, customer_turn: customerTurn };
  } finally {
    start.release();
  }
}

export async function takeTurn(db: Db, player: Reader, id: number, text: string): Promise<TurnReply> {
  const start = await beginTurn(db, player, id, text);
  let answer: string;
  try {
    answer = await customerAnswer(db, start, () => undefined);
  } catch (err) {
    start.release();
    throw err;
  }
  return completeTurn(db, start, answer);
}

/** A missed criterion as a practice item (a card in spaced review). */
function practiceItem(scenario: Scenario, missed: CriterionResult, userId: number, sessionId: number, at: string): NewReviewItem {
  const criterion = scenario.criteria.find((c) => c.key === missed.key)!;
  const how = criterion.description ?? (criterion.phrases?.length ? `例如：${criterion.phrases.join('；')}` : '');
  return {
    user_id: userId,
    report_id: null,
    roleplay_session_id: sessionId,
    finding_id: `roleplay.${missed.key}`.slice(0, 32),
    created_at: at,
    body: { label: `${scenario.title}：${missed.label}`, claim: '', stated: '', correct: how, explanation: how, segments: [], citations: [] },
  };
}

export async function finish(db: Db, player: Reader, id: number): Promise<Session> {
  const session = await ownActiveSession(db, player, id);
  const scenario = (await findScenario(db, session.scenario_id))!;
  const context = await scenarioContext(db, scenario);
  const check = inspectConversation(context.rules, session.turns, context.product);
  const judged = session.mode === 'model' ? await judgeByModel(db, player.id, scenario.criteria, session.turns) : [];
  const criteria = judgeCriteria(scenario.criteria, session.turns, check.verdicts, judged);
  const score = scoreOf(criteria);
  const at = now();
  const report: StoredReport = { criteria, compliance: { results: check.results }, practice_item_ids: [] };
  const finished = await db.transaction(async (trx) => {
    if (!(await finishSession(trx, id, { score, passed: score >= scenario.pass_score, report }, at))) return false;
    report.practice_item_ids = await insertReviewItems(trx, criteria.filter((c) => !c.met).map((c) => practiceItem(scenario, c, player.id, id, at)));
    if (report.practice_item_ids.length) await setPracticeItems(trx, id, report);
    return true;
  });
  if (!finished) throw sessionFinished(id);
  return (await findSession(db, id))!;
}
