// POST /api/worker/chat: one exchange of a task, streamed as server-sent events.
//
// The event stream opens only when the first token arrives (or the model call returns): until then a failure,
// such as no usable model route, still reaches the client as an error in the envelope. Koa sends a stream body
// only after the handler returns, so the handler waits for "stream opened or exchange finished" and the rest of
// the exchange carries on detached, reporting its own failures as an error event.
import type { Context } from 'koa';
import type { Db } from '../db/knex.js';
import type { TaskArtifact, WorkerChatEvent } from '../../contract/workbench.js';
import { WorkbenchErrorCode } from '../../contract/workbench.js';
import type { StreamChatResult } from '../ai/llm.js';
import { streamChat } from '../ai/chat-client.js';
import { lazyEventStream } from '../http/sse.js';
import { AppError } from '../http/errors.js';
import type { ExchangePlan } from './exchange-plan.js';
import { parseSkillOutput, TABLE_REPLY_SCHEMA } from './skill-io.js';
import { deleteTaskWithRecords, finishRun, insertArtifact, insertRun, insertTask, updateTaskRow } from './tasks.repository.js';

interface StartedRun {
  taskId: number;
  runId: number;
  createdTask: boolean;
}

/** Creates the task on its first message (spec 4.11 notes) and the run of this exchange. */
function startRun(db: Db, plan: ExchangePlan, runner: string): Promise<StartedRun> {
  return db.transaction(async (trx) => {
    const taskId = plan.task
      ? plan.task.id
      : await insertTask(trx, { user_id: plan.userId, title: plan.title, specialist_key: plan.specialist.key, project_id: plan.projectId });
    if (plan.task) await updateTaskRow(trx, taskId, {});
    const runId = await insertRun(trx, {
      task_id: taskId,
      kind: plan.skill ? 'skill' : 'chat',
      skill_key: plan.skill?.key ?? null,
      specialist_key: plan.specialist.key,
      input: plan.input,
      runner,
    });
    return { taskId, runId, createdTask: !plan.task };
  });
}

function artifactTitle(plan: ExchangePlan): string {
  const names = (plan.input.documents ?? []).map((d) => d.name);
  const title = `${plan.skill!.name}: ${names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ')}`;
  return title.slice(0, 300);
}

/** Records a successful model reply; a skill run also stores its artifact, or fails when the reply has no usable output. */
async function settleRun(db: Db, plan: ExchangePlan, started: StartedRun, result: StreamChatResult): Promise<TaskArtifact | undefined> {
  const succeeded = { status: 'succeeded' as const, output: result.text, route: result.route };
  if (!plan.skill) {
    await finishRun(db, started.runId, succeeded);
    return undefined;
  }
  const parsed = parseSkillOutput(plan.skill.output_kind, result.text);
  if (!parsed) {
    const expected = plan.skill.output_kind === 'table' ? 'a JSON table {columns, rows}' : 'a non-empty markdown report';
    throw new AppError(502, WorkbenchErrorCode.skillOutputInvalid, `The model reply to ${plan.skill.key} is not ${expected}`);
  }
  const skill = plan.skill;
  const output = parsed.kind === 'report' && plan.reportPreamble ? { kind: parsed.kind, content: `${plan.reportPreamble}\n\n${parsed.content}` } : parsed;
  return db.transaction(async (trx) => {
    const artifact = await insertArtifact(trx, { task_id: started.taskId, run_id: started.runId, skill_key: skill.key, title: artifactTitle(plan), ...output });
    await finishRun(trx, started.runId, succeeded);
    return artifact;
  });
}

function failureMessage(err: unknown, aborted: boolean): string {
  if (aborted) return 'The client disconnected before the reply finished';
  return err instanceof AppError ? err.message : 'The model call failed';
}

export async function workerChat(ctx: Context, db: Db, plan: ExchangePlan, runner: string): Promise<void> {
  const abort = new AbortController();
  ctx.res.once('close', () => abort.abort());
  const started = await startRun(db, plan, runner);
  const first: WorkerChatEvent = { type: 'task', task_id: started.taskId, run_id: started.runId, specialist_key: plan.specialist.key };
  const events = lazyEventStream(ctx, first);

  const exchange = (async () => {
    let result: StreamChatResult | undefined;
    let streamed = '';
    try {
      result = await streamChat(db, {
        messages: plan.messages,
        jsonSchema: plan.skill?.output_kind === 'table' ? TABLE_REPLY_SCHEMA : undefined,
        signal: abort.signal,
        onToken: (content) => {
          streamed += content;
          events.send({ type: 'text', content });
        },
        log: { user_id: plan.userId, specialist_key: plan.specialist.key, task_id: started.taskId, purpose: plan.skill ? `workbench.skill.${plan.skill.key}` : 'workbench.chat' },
      });
      // From here on every outcome, a reply without any token included, goes out as events.
      events.open();
      if (abort.signal.aborted) throw new Error('client disconnected');
      const artifact = await settleRun(db, plan, started, result);
      if (artifact) events.send({ type: 'artifact', artifact });
      events.send({ type: 'done' });
      events.end();
    } catch (err) {
      const message = failureMessage(err, abort.signal.aborted);
      if (!events.started) {
        // Nothing was streamed: the error goes out in the envelope, and a task created for it goes away again.
        if (started.createdTask) await deleteTaskWithRecords(db, started.taskId);
        else await finishRun(db, started.runId, { status: 'failed', output: '', error: message });
        throw err;
      }
      await finishRun(db, started.runId, { status: 'failed', output: result?.text ?? streamed, error: message, route: result?.route }).catch((e) => ctx.app.emit('error', e, ctx));
      events.send({ type: 'error', message });
      events.end();
    }
  })();
  await Promise.race([events.opened, exchange]);
}
