import { useState, type FormEvent } from 'react';
import { isAbort, modelFailureMessage } from '../../api/client';
import { invalidate, useQuery } from '../../app/query';
import { PageHeader } from '../../components/PageHeader';
import { Empty, ErrorNotice, QueryView } from '../../components/states';
import { formatDateTime } from '../../components/format';
import type { TaskRun } from '../../api/types';
import { listMyTasks, listRuns, listSpecialists, sendWorkerMessage, workbenchKeys } from './api';

/** A reply being streamed into the selected task. */
interface Streaming {
  message: string;
  reply: string;
  error?: string;
}

const describeFailure = (err: unknown) => modelFailureMessage(err, 'The digital worker could not answer.');

/** The digital worker: your tasks on the left, the selected task's exchanges on the right, and a message box. */
export function WorkbenchPage() {
  const tasks = useQuery(workbenchKeys.tasks, listMyTasks);
  const specialists = useQuery(workbenchKeys.specialists, listSpecialists);
  const [taskId, setTaskId] = useState<number | null>(null);
  const [specialist, setSpecialist] = useState('');
  const [draft, setDraft] = useState('');
  const [streaming, setStreaming] = useState<Streaming | null>(null);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const message = draft.trim();
    if (!message || streaming) return;
    setDraft('');
    setStreaming({ message, reply: '' });
    let answeredIn = taskId;
    try {
      await sendWorkerMessage(
        { message, ...(taskId ? { task_id: taskId } : specialist ? { specialist_key: specialist } : {}) },
        (ev) => {
          if (ev.type === 'task') answeredIn = ev.task_id;
          else if (ev.type === 'text') setStreaming((s) => s && { ...s, reply: s.reply + ev.content });
          else if (ev.type === 'error') setStreaming((s) => s && { ...s, error: ev.message });
        },
        new AbortController().signal,
      );
      setStreaming(null);
    } catch (err) {
      setStreaming((s) => s && (isAbort(err) ? null : { ...s, error: describeFailure(err) }));
    } finally {
      if (answeredIn) {
        setTaskId(answeredIn);
        invalidate(workbenchKeys.runs(answeredIn));
      }
      invalidate(workbenchKeys.tasks);
    }
  };

  return (
    <>
      <PageHeader title="Digital worker" subtitle="Hand work to a specialist: each task keeps its conversation, and you can come back to it." />
      <div className="workbench">
        <section className="panel" aria-label="My tasks">
          <button type="button" className="button button-small" onClick={() => setTaskId(null)} aria-pressed={taskId === null}>
            + New task
          </button>
          <QueryView query={tasks}>
            {(list) =>
              list.length ? (
                <ul className="task-list">
                  {list.map((task) => (
                    <li key={task.id}>
                      <button type="button" className={`task-item${task.id === taskId ? ' task-item-active' : ''}`} onClick={() => setTaskId(task.id)}>
                        <strong>{task.title}</strong>
                        <span className="muted small">
                          {task.specialist_key} · {formatDateTime(task.updated_at)}
                        </span>
                      </button>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="muted small">No tasks yet: your first message starts one.</p>
              )
            }
          </QueryView>
        </section>
        <section className="panel" aria-label="Conversation">
          {taskId ? <Runs taskId={taskId} /> : <NewTaskIntro />}
          {streaming && (
            <div className="run">
              <div className="bubble bubble-user">{streaming.message}</div>
              <div className="bubble bubble-assistant">{streaming.reply || <span className="typing" aria-label="The worker is typing" />}</div>
              {streaming.error && <div className="bubble-error">{streaming.error}</div>}
            </div>
          )}
          <form className="composer" aria-label="Message to the digital worker" onSubmit={send}>
            {taskId === null && (
              <label className="inline-field">
                <span>Specialist</span>
                <select value={specialist} onChange={(e) => setSpecialist(e.target.value)}>
                  <option value="">General assistant</option>
                  {specialists.data?.map((s) => (
                    <option key={s.key} value={s.key}>
                      {s.name}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <textarea aria-label="Message" rows={2} value={draft} placeholder={taskId ? 'Continue this task…' : 'Describe the work…'} onChange={(e) => setDraft(e.target.value)} />
            <button type="submit" className="button button-primary" disabled={!draft.trim() || !!streaming}>
              Send
            </button>
          </form>
        </section>
      </div>
    </>
  );
}

function NewTaskIntro() {
  return <Empty>Describe the work and choose a specialist: the first sentence becomes the task's title.</Empty>;
}

function Runs({ taskId }: { taskId: number }) {
  const runs = useQuery(workbenchKeys.runs(taskId), (signal) => listRuns(taskId, signal));
  return (
    <QueryView query={runs}>
      {(list) => (
        <ol className="run-list" aria-label="Exchanges">
          {list.map((run) => (
            <Run key={run.id} run={run} />
          ))}
        </ol>
      )}
    </QueryView>
  );
}

function Run({ run }: { run: TaskRun }) {
  return (
    <li className="run">
      <div className="bubble bubble-user">{run.input.message}</div>
      {run.output && <div className="bubble bubble-assistant">{run.output}</div>}
      {run.status === 'failed' && <ErrorNotice error={new Error(run.error ?? 'This exchange failed.')} />}
    </li>
  );
}
