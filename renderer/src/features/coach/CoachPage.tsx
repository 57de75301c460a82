import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Flex, Input, Typography } from 'antd';
import { isAbort } from '../../api/client';
import { useUser } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { ErrorNotice, Loading } from '../../components/states';
import { StatusTag } from '../../components/StatusTag';
import { describeError } from '../../i18n/errors';
import { productQueries } from '../products/queries';
import { coachQueries, sendCoachMessage } from './queries';
import { useClearHistory } from './mutations';
import { ProductPicker } from './ProductPicker';
import { QuickActions } from './QuickActions';
import { useRolePlay } from './useRolePlay';

interface Line {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  /** Still streaming. */
  pending?: boolean;
  error?: string;
  /** Answered by a model on this computer (the `done` event's route). */
  local?: boolean;
  /** Waiting for the local model: replies ahead of this one. */
  ahead?: number;
}

let nextId = 0;
const lineId = () => `local-${++nextId}`;

export default function CoachPage() {
  const { t } = useTranslation();
  const user = useUser();
  const [params, setParams] = useSearchParams();
  const productParam = params.get('product');
  const productId = productParam && /^\d+$/.test(productParam) ? Number(productParam) : undefined;
  const selected = useQuery({ ...productQueries.detail(productId ?? 0), enabled: productId !== undefined }).data;
  const history = useQuery(coachQueries.history());
  const [lines, setLines] = useState<Line[] | null>(null);
  const [draft, setDraft] = useState('');
  const [streaming, setStreaming] = useState<AbortController | null>(null);
  const clear = useClearHistory();
  const endRef = useRef<HTMLDivElement>(null);
  const rolePlay = useRolePlay();
  const launched = useRef<number | null>(null);

  useEffect(() => {
    if (lines === null && history.data) setLines(history.data.messages.map((m) => ({ id: String(m.id), role: m.role, content: m.content })));
  }, [history.data, lines]);
  useEffect(() => {
    // Braces matter: Chromium's scrollIntoView returns a promise, and an effect must not return one.
    endRef.current?.scrollIntoView({ block: 'end' });
  }, [lines]);
  useEffect(() => () => streaming?.abort(), [streaming]);

  const update = (id: string, change: (line: Line) => Line) => setLines((all) => (all ?? []).map((l) => (l.id === id ? change(l) : l)));

  const send = (event?: FormEvent) => {
    event?.preventDefault();
    const message = draft.trim();
    if (!message || streaming) return;
    setDraft('');
    void sendText(message);
  };

  const sendText = async (message: string) => {
    const replyId = lineId();
    setLines((all) => [...(all ?? []), { id: lineId(), role: 'user', content: message }, { id: replyId, role: 'assistant', content: '', pending: true }]);
    const controller = new AbortController();
    setStreaming(controller);
    try {
      await sendCoachMessage(
        { message, context: rolePlay.context ?? { ...(productId ? { product_id: productId } : {}), page: 'coach' } },
        (ev) => {
          if (ev.type === 'text') update(replyId, (l) => ({ ...l, content: l.content + ev.content, ahead: undefined }));
          else if (ev.type === 'queued') update(replyId, (l) => ({ ...l, ahead: ev.position }));
          else if (ev.type === 'done') update(replyId, (l) => ({ ...l, local: ev.route?.local === true }));
          else if (ev.type === 'error') update(replyId, (l) => ({ ...l, error: t('errors.stream_failed', { detail: ev.message }) }));
        },
        controller.signal,
      );
    } catch (err) {
      if (!isAbort(err)) update(replyId, (l) => ({ ...l, error: describeError(err, t).message }));
    } finally {
      update(replyId, (l) => ({ ...l, pending: false }));
      setStreaming(null);
    }
  };

  // One click from a coaching report: the practice starts with the report's own opening message, once.
  useEffect(() => {
    if (!rolePlay.startMessage || lines === null || streaming || launched.current === rolePlay.reportId) return;
    launched.current = rolePlay.reportId;
    rolePlay.started();
    void sendText(rolePlay.startMessage);
  });

  return (
    <div className="coach">
      <PageHeader
        title={t('coach.title')}
        subtitle={t('coach.subtitle')}
        actions={
          <>
            <ProductPicker value={productId} onChange={(id) => setParams(id ? { product: String(id) } : {})} />
            <Button disabled={!!streaming || !lines?.length} loading={clear.isPending} onClick={() => clear.mutate(undefined, { onSuccess: () => setLines([]) })}>
              {t('coach.clear')}
            </Button>
          </>
        }
      />
      {clear.error && <ErrorNotice error={clear.error} />}
      {rolePlay.error && <ErrorNotice error={rolePlay.error} />}
      {rolePlay.active && (
        <Alert
          className="section"
          type="info"
          showIcon
          role="status"
          title={t('coaching.scenario.banner', { name: rolePlay.filename })}
          action={
            <Button size="small" disabled={!!streaming} onClick={rolePlay.end}>
              {t('coaching.scenario.end')}
            </Button>
          }
        />
      )}
      <QuickActions productId={productId} />
      <Card className="chat" aria-live="polite">
        {history.error && <ErrorNotice error={history.error} onRetry={() => void history.refetch()} />}
        {lines === null && !history.error && <Loading label={t('coach.loading')} />}
        {lines?.length === 0 && (
          <div className="chat-empty">
            <p>{t('coach.examplesIntro')}</p>
            <ul>
              <li>{selected ? t('coach.exampleProduct', { name: selected.name }) : t('coach.exampleAny')}</li>
              <li>{t('coach.exampleRolePlay')}</li>
            </ul>
          </div>
        )}
        {lines?.map((line) => (
          <div key={line.id} className={`bubble bubble-${line.role}`}>
            <div className="bubble-author">{line.role === 'user' ? user.full_name || t('coach.you') : t('coach.coach')}</div>
            <div className="bubble-text">
              {line.content}
              {line.pending && <span className="typing" role="status" aria-label={t('coach.typing')} />}
            </div>
            {line.ahead !== undefined && (
              <div className="bubble-note" role="status">
                {t('coach.queued', { count: line.ahead })}
              </div>
            )}
            {line.local && (
              <div className="bubble-note" title={t('coach.ranLocallyHint')}>
                <StatusTag tone="success">{t('coach.ranLocally')}</StatusTag>
              </div>
            )}
            {line.error && <div className="bubble-error">{line.error}</div>}
          </div>
        ))}
        <div ref={endRef} />
      </Card>
      <form className="composer" onSubmit={send} aria-label={t('coach.composer')}>
        <Input.TextArea
          aria-label={t('coach.message')}
          placeholder={selected ? t('coach.askAbout', { name: selected.name }) : t('coach.typeMessage')}
          value={draft}
          autoSize={{ minRows: 2, maxRows: 6 }}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void send();
            }
          }}
        />
        <Flex vertical justify="flex-end">
          {streaming ? (
            <Button onClick={() => streaming.abort()}>{t('coach.stop')}</Button>
          ) : (
            <Button type="primary" htmlType="submit" disabled={!draft.trim()}>
              {t('coach.send')}
            </Button>
          )}
        </Flex>
      </form>
      <Typography.Text type="secondary" className="hint">
        {t('coach.enterHint')}
      </Typography.Text>
    </div>
  );
}
