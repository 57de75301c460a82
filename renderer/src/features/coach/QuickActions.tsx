import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '../../app/query';
import { ErrorNotice } from '../../components/states';
import type { QuickActionId, QuickActionResult } from '../../api/types';
import { listQuickActions, runQuickAction } from './api';

/** The coach's one-click tools for the chosen product: commission, comparison and a practice scenario. */
export function QuickActions({ productId }: { productId: number | undefined }) {
  const actions = useQuery('coach/quick-actions', listQuickActions);
  const [amount, setAmount] = useState('');
  const [result, setResult] = useState<QuickActionResult | null>(null);
  const run = useMutation((id: QuickActionId) => runQuickAction(id, { product_id: productId, ...(id === 'commission' && amount ? { amount: Number(amount) } : {}) }));

  const start = async (id: QuickActionId, event?: FormEvent) => {
    event?.preventDefault();
    setResult(null);
    const answer = await run.run(id);
    if (answer) setResult(answer);
  };

  if (!actions.data?.actions.length) return null;
  return (
    <section className="panel quick-actions" aria-label="Quick actions">
      {productId === undefined ? (
        <p className="muted small">Choose a product above to use the quick actions.</p>
      ) : (
        <form className="quick-action-bar" onSubmit={(e) => start('commission', e)}>
          <label className="inline-field">
            <span>Amount</span>
            <input type="number" min={0} step="any" value={amount} placeholder="10000" onChange={(e) => setAmount(e.target.value)} />
          </label>
          {actions.data.actions.map((action) => (
            <button key={action.id} type="button" className="button" disabled={run.busy} onClick={() => start(action.id)}>
              {action.label}
            </button>
          ))}
        </form>
      )}
      {run.error && <ErrorNotice error={run.error} />}
      {result && <QuickActionAnswer result={result} />}
    </section>
  );
}

function QuickActionAnswer({ result }: { result: QuickActionResult }) {
  if (result.action_id === 'commission') return <p className="quick-action-answer">{result.answer}</p>;
  if (result.action_id === 'scenario') return <p className="quick-action-answer pre-wrap">{result.scenario}</p>;
  return (
    <div className="quick-action-answer">
      {result.note && <p className="muted small">{result.note}</p>}
      <table className="table" aria-label="Product comparison">
        <thead>
          <tr>
            <th scope="col" />
            {result.products.map((p) => (
              <th key={p.id} scope="col">
                {p.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {result.rows.map((row) => (
            <tr key={row.field}>
              <th scope="row">{row.label}</th>
              {row.values.map((value, i) => (
                <td key={result.products[i]!.id}>{value ?? '—'}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
