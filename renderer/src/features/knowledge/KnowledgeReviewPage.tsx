import { useState } from 'react';
import { useMutation, useQuery } from '../../app/query';
import { PageHeader } from '../../components/PageHeader';
import { Pill, type Tone } from '../../components/Pill';
import { Empty, ErrorNotice, QueryView } from '../../components/states';
import { formatDateTime, humanize, plural } from '../../components/format';
import type { KnowledgeScanResult, KnowledgeScanStatus, KnowledgeSource } from '../../api/types';
import { Pager } from '../review/Pager';
import { ReviewActions } from '../review/ReviewActions';
import { StatusFilter, reviewTone, type ReviewStatus } from '../review/StatusFilter';
import { auditKnowledge, knowledgeKeys, listKnowledgeAudit, scanKnowledge } from './api';

export function KnowledgeReviewPage() {
  const [status, setStatus] = useState<ReviewStatus>('pending');
  const [page, setPage] = useState(1);
  const sources = useQuery(knowledgeKeys.audit(status, page), (signal) => listKnowledgeAudit(status, page, signal));
  // Kept here, not in the row: an approved source leaves the pending list as soon as it reloads.
  const [approved, setApproved] = useState<string | null>(null);
  return (
    <>
      <PageHeader title="Knowledge review" subtitle="Scan the knowledge folder for new or changed files, then approve them to load their products, questions and text." />
      <Scan />
      <h2 className="section-title">Sources</h2>
      {approved && (
        <div className="notice notice-success" role="status">
          {approved}
        </div>
      )}
      <StatusFilter
        value={status}
        onChange={(next) => {
          setStatus(next);
          setPage(1);
        }}
      />
      <QueryView query={sources}>
        {(data) =>
          data.items.length ? (
            <>
              <div className="panel panel-flush">
                <table className="table" aria-label="Knowledge sources">
                  <thead>
                    <tr>
                      <th>Source</th>
                      <th>Scanned</th>
                      <th>Status</th>
                      <th>Loaded</th>
                      <th aria-label="Actions" />
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((source) => (
                      <SourceRow key={source.id} source={source} onApproved={setApproved} />
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager page={data} onPage={setPage} />
            </>
          ) : (
            <Empty>No {status === 'all' ? '' : `${status} `}sources. Scan to find new files.</Empty>
          )
        }
      </QueryView>
    </>
  );
}

const scanTone: Record<KnowledgeScanStatus, Tone> = { created: 'info', updated: 'warning', unchanged: 'neutral', missing: 'danger', skipped: 'danger' };

function Scan() {
  const scan = useMutation(scanKnowledge, [knowledgeKeys.all]);
  const [results, setResults] = useState<KnowledgeScanResult[] | null>(null);
  return (
    <section className="panel" aria-label="Scan">
      <div className="panel-head">
        <h2 className="panel-title">Scan</h2>
        <button
          type="button"
          className="button button-primary"
          disabled={scan.busy}
          onClick={async () => {
            const response = await scan.run();
            if (response) setResults(response.results);
          }}
        >
          {scan.busy ? 'Scanning…' : 'Scan knowledge folder'}
        </button>
      </div>
      {scan.error && <ErrorNotice error={scan.error} />}
      {results &&
        (results.length ? (
          <table className="table" aria-label="Scan results">
            <thead>
              <tr>
                <th>File</th>
                <th>Title</th>
                <th>Result</th>
              </tr>
            </thead>
            <tbody>
              {results.map((result) => (
                <tr key={result.file_path}>
                  <td>{result.file_path}</td>
                  <td>{result.title}</td>
                  <td>
                    <Pill tone={scanTone[result.status]}>{humanize(result.status)}</Pill>
                    {result.reason && <div className="muted small">{result.reason}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">The knowledge folder has no markdown files.</p>
        ))}
    </section>
  );
}

const loaded = (s: { products: number; questions: number; chunks: number }) => `${plural(s.products, 'product')}, ${plural(s.questions, 'question')}, ${plural(s.chunks, 'text chunk')}`;

function SourceRow({ source, onApproved }: { source: KnowledgeSource; onApproved(message: string): void }) {
  const audit = useMutation((reason: string | null) => auditKnowledge(source.id, reason), [knowledgeKeys.all]);
  const run = async (reason: string | null) => {
    const result = await audit.run(reason);
    if (result?.status === 'approved') onApproved(`Approved “${source.title}”: loaded ${loaded(result)}.`);
  };
  return (
    <tr>
      <td>
        <strong>{source.title}</strong>
        <div className="muted small">
          {source.file_path} · {humanize(source.domain)}
        </div>
      </td>
      <td>{formatDateTime(source.scanned_at)}</td>
      <td>
        <Pill tone={reviewTone[source.status]}>{humanize(source.status)}</Pill>
        {source.reject_reason && <div className="muted small">{source.reject_reason}</div>}
      </td>
      <td className="small">{source.status === 'approved' ? loaded(source) : '—'}</td>
      <td className="cell-actions">
        {source.status === 'pending' && <ReviewActions name={source.title} busy={audit.busy} error={audit.error} onApprove={() => run(null)} onReject={run} />}
      </td>
    </tr>
  );
}
