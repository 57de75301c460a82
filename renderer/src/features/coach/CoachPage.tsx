import { useEffect, useRef, useState, type FormEvent } from 'react';
import { isAbort, modelFailureMessage } from '../../api/client';
import { invalidate, useMutation, useQuery } from '../../app/query';
import { navigate, useLocation } from '../../app/router';
import { useSession } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { ErrorNotice, Loading } from '../../components/states';
import { listProducts, productKeys } from '../products/api';
import { clearHistory, coachKeys, getHistory, sendCoachMessage } from './api';
import { QuickActions } from './QuickActions';

interface Line {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  /** Still streaming. */
  pending?: boolean;
  error?: string;
}

const describeFailure = (err: unknown) => modelFailureMessage(err, 'The coach could not answer.');

let nextId = 0;
const lineId = () => `local-${++nextId}`;

export function CoachPage() {
  const { user } = useSession();
  const productParam = useLocation().query.get('product');
  const productId = productParam && /^\d+$/.test(productParam) ? Number(productParam) : undefined;
  const products = useQuery(productKeys.list(''), (signal) => listProducts(undefined, signal));
  const history = useQuery(coachKeys.history, getHistory);
  const [lines, setLines] = useState<Line[] | null>(null);
  const [draft, setDraft] = useState('');
  const [streaming, setStreaming] = useState<AbortController | null>(null);
  const clear = useMutation(clearHistory);
  const endRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (lines === null && history.data) setLines(history.data.messages.map((m) => ({ id: String(m.id), role: m.role, content: m.content })));
  }, [history.data, lines]);
  useEffect(() => {
    // Braces matter: Chromium's scrollIntoView returns a promise, and an effect must not return one.
    endRef.current?.scrollIntoView({ block: 'end' });
  }, [lines]);
  useEffect(() => () => streaming?.abort(), [streaming]);

  const update = (id: string, change: (line: Line) => Line) => setLines((all) => (all ?? []).map((l) => (l.id === id ? change(l) : l)));

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const message = draft.trim();
    if (!message || streaming) return;
    const replyId = lineId();
    setLines((all) => [...(all ?? []), { id: lineId(), role: 'user', content: message }, { id: replyId, role: 'assistant', content: '', pending: true }]);
    setDraft('');
    const controller = new AbortController();
    setStreaming(controller);
    try {
      await sendCoachMessage(
        { message, context: { ...(productId ? { product_id: productId } : {}), page: 'coach' } },
        (ev) => {
          if (ev.type === 'text') update(replyId, (l) => ({ ...l, content: l.content + ev.content }));
          else if (ev.type === 'error') update(replyId, (l) => ({ ...l, error: ev.message }));
        },
        controller.signal,
      );
    } catch (err) {
      if (!isAbort(err)) update(replyId, (l) => ({ ...l, error: describeFailure(err) }));
    } finally {
      update(replyId, (l) => ({ ...l, pending: false }));
      setStreaming(null);
    }
  };

  const selected = products.data?.find((p) => p.id === productId);

  return (
    <div className="coach">
      <PageHeader
        title="AI coach"
        subtitle="Practise customer conversations and ask about products. The coach answers from the company's training material."
        actions={
          <>
            <label className="inline-field">
              <span>Product</span>
              <select aria-label="Product" value={productId ?? ''} onChange={(e) => navigate(e.target.value ? `/coach?product=${e.target.value}` : '/coach')}>
                <option value="">Any product</option>
                {products.data?.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              className="button"
              disabled={!!streaming || clear.busy || !lines?.length}
              onClick={async () => {
                if ((await clear.run()) !== undefined) {
                  setLines([]);
                  invalidate(coachKeys.history);
                }
              }}
            >
              Clear conversation
            </button>
          </>
        }
      />
      {clear.error && <ErrorNotice error={clear.error} />}
      <QuickActions productId={productId} />
      <div className="chat panel" aria-live="polite">
        {history.error && <ErrorNotice error={history.error} onRetry={history.reload} />}
        {lines === null && !history.error && <Loading label="Loading the conversation…" />}
        {lines?.length === 0 && (
          <div className="chat-empty">
            <p>Ask anything, for example:</p>
            <ul>
              <li>{selected ? `How do I explain the risks of ${selected.name} to a cautious customer?` : 'Which product suits a customer who wants steady income?'}</li>
              <li>Play a customer who is unsure about fees, and let me respond.</li>
            </ul>
          </div>
        )}
        {lines?.map((line) => (
          <div key={line.id} className={`bubble bubble-${line.role}`}>
            <div className="bubble-author">{line.role === 'user' ? user?.full_name || 'You' : 'Coach'}</div>
            <div className="bubble-text">
              {line.content}
              {line.pending && <span className="typing" aria-label="The coach is typing" />}
            </div>
            {line.error && <div className="bubble-error">{line.error}</div>}
          </div>
        ))}
        <div ref={endRef} />
      </div>
      <form className="composer" onSubmit={send}>
        <textarea
          aria-label="Message to the coach"
          placeholder={selected ? `Ask about ${selected.name}…` : 'Type your message…'}
          value={draft}
          rows={2}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        {streaming ? (
          <button type="button" className="button" onClick={() => streaming.abort()}>
            Stop
          </button>
        ) : (
          <button type="submit" className="button button-primary" disabled={!draft.trim()}>
            Send
          </button>
        )}
      </form>
    </div>
  );
}
