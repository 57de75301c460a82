import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Col, Flex, Input, Row, Select } from 'antd';
import { BookOutlined, PlusOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { isAbort } from '../../api/client';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, QueryView } from '../../components/states';
import { useListParams } from '../../components/list/useListParams';
import { ListSearch } from '../../components/list/ListSearch';
import { describeError } from '../../i18n/errors';
import type { Task, TaskRun } from '../../api/types';
import { sendWorkerMessage, workbenchKeys, workbenchQueries } from './queries';
import { TaskList } from './TaskList';
import { TaskActions } from './TaskActions';
import { ProjectBar } from './ProjectBar';
import { Artifacts } from './Artifacts';
import { useShownText } from '../../i18n/useShownText';

/** A reply being streamed into the selected task. */
interface Streaming {
  message: string;
  reply: string;
  error?: string;
}

/**
 * The digital worker: your tasks on the left (pinned first, by project), the selected task with its exchanges and
 * artifacts on the right, and a message box.
 */
export default function WorkbenchPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { page, filters, setPage, setFilters } = useListParams({ project: '', q: '' });
  const projectId = filters.project ? Number(filters.project) : null;
  const tasks = useQuery(workbenchQueries.tasks({ q: filters.q, page, projectId }));
  const specialists = useQuery(workbenchQueries.specialists());
  const shown = useShownText();
  const [taskId, setTaskId] = useState<number | null>(null);
  const [specialist, setSpecialist] = useState('');
  const [draft, setDraft] = useState('');
  const [streaming, setStreaming] = useState<Streaming | null>(null);
  const selectedTask = useSelectedTask(taskId, tasks.data?.items);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const message = draft.trim();
    if (!message || streaming) return;
    setDraft('');
    setStreaming({ message, reply: '' });
    let answeredIn = taskId;
    try {
      await sendWorkerMessage(
        { message, ...(taskId ? { task_id: taskId } : { ...(specialist && { specialist_key: specialist }), ...(projectId && { project_id: projectId }) }) },
        (ev) => {
          if (ev.type === 'task') answeredIn = ev.task_id;
          else if (ev.type === 'artifact') void queryClient.invalidateQueries({ queryKey: workbenchKeys.artifacts(ev.artifact.task_id) });
          else if (ev.type === 'text') setStreaming((s) => s && { ...s, reply: s.reply + ev.content });
          else if (ev.type === 'error') setStreaming((s) => s && { ...s, error: t('errors.stream_failed', { detail: ev.message }) });
        },
        new AbortController().signal,
      );
      setStreaming(null);
    } catch (err) {
      setStreaming((s) => s && (isAbort(err) ? null : { ...s, error: describeError(err, t).message }));
    } finally {
      if (answeredIn) {
        setTaskId(answeredIn);
        await queryClient.invalidateQueries({ queryKey: workbenchKeys.runs(answeredIn) });
      }
      await queryClient.invalidateQueries({ queryKey: workbenchKeys.tasks() });
    }
  };

  return (
    <>
      <PageHeader
        title={t('workbench.title')}
        subtitle={t('workbench.subtitle')}
        actions={
          <Link to="/workbench/notes">
            <BookOutlined aria-hidden /> {t('workbench.notes.title')}
          </Link>
        }
      />
      <Row gutter={16}>
        <Col xs={24} lg={8} xl={7}>
          <section aria-label={t('workbench.tasks')}>
            <Card size="small" title={<h2 className="card-heading">{t('workbench.tasks')}</h2>}>
              <ProjectBar
                projectId={projectId}
                onChange={(id) => {
                  setTaskId(null);
                  setFilters({ project: id === null ? '' : String(id) });
                }}
              />
              <Button block icon={<PlusOutlined aria-hidden />} onClick={() => setTaskId(null)} aria-pressed={taskId === null} className="section">
                {t('workbench.newTask')}
              </Button>
              <ListSearch label={t('workbench.searchTasks')} placeholder={t('workbench.task.title')} value={filters.q} onSearch={(q) => setFilters({ q })} />
              <TaskList tasks={tasks} selected={taskId} onSelect={setTaskId} onPage={setPage} searching={!!filters.q} />
            </Card>
          </section>
        </Col>
        <Col xs={24} lg={16} xl={17}>
          <section aria-label={t('workbench.conversation')}>
            <Card size="small">
              {selectedTask && <TaskActions task={selectedTask} onDeleted={() => setTaskId(null)} />}
              {taskId ? <Runs taskId={taskId} /> : <EmptyState>{t('workbench.intro')}</EmptyState>}
              {streaming && (
                <div className="run">
                  <div className="bubble bubble-user">{streaming.message}</div>
                  <div className="bubble bubble-assistant">{streaming.reply || <span className="typing" role="status" aria-label={t('workbench.typing')} />}</div>
                  {streaming.error && <div className="bubble-error">{streaming.error}</div>}
                </div>
              )}
              <form className="composer composer-stacked" aria-label={t('workbench.composer')} onSubmit={send}>
                {taskId === null && (
                  <label className="inline-field">
                    <span>{t('workbench.specialist')}</span>
                    <Select
                      aria-label={t('workbench.specialist')}
                      className="specialist-select"
                      value={specialist}
                      onChange={setSpecialist}
                      options={[{ value: '', label: t('workbench.general') }, ...(specialists.data ?? []).map((s) => ({ value: s.key, label: shown(s).name }))]}
                    />
                  </label>
                )}
                <Flex gap="small" align="flex-end">
                  <Input.TextArea aria-label={t('workbench.message')} autoSize={{ minRows: 2, maxRows: 6 }} value={draft} placeholder={t(taskId ? 'workbench.continue' : 'workbench.describe')} onChange={(e) => setDraft(e.target.value)} />
                  <Button type="primary" htmlType="submit" disabled={!draft.trim() || !!streaming}>
                    {t('workbench.send')}
                  </Button>
                </Flex>
              </form>
            </Card>
            {taskId && <Artifacts taskId={taskId} />}
          </section>
        </Col>
      </Row>
    </>
  );
}

/** The selected task: from the page shown, else (on another page, or not matching the search) asked for alone. */
function useSelectedTask(taskId: number | null, shown: Task[] | undefined): Task | undefined {
  const listed = shown?.find((task) => task.id === taskId);
  const alone = useQuery({ ...workbenchQueries.task(taskId ?? 0), enabled: taskId !== null && !listed });
  return taskId === null ? undefined : (listed ?? alone.data ?? undefined);
}

function Runs({ taskId }: { taskId: number }) {
  const { t } = useTranslation();
  const runs = useQuery(workbenchQueries.runs(taskId));
  return (
    <QueryView query={runs}>
      {(list) => (
        <ol className="run-list" aria-label={t('workbench.exchanges')}>
          {list.map((run) => (
            <Run key={run.id} run={run} />
          ))}
        </ol>
      )}
    </QueryView>
  );
}

function Run({ run }: { run: TaskRun }) {
  const { t } = useTranslation();
  return (
    <li className="run">
      <div className="bubble bubble-user">{run.input.message}</div>
      {run.output && <div className="bubble bubble-assistant">{run.kind === 'skill' && run.status === 'succeeded' ? t('workbench.artifacts.produced') : run.output}</div>}
      {run.status === 'failed' && <div className="bubble-error">{run.error ?? t('workbench.failed')}</div>}
    </li>
  );
}
