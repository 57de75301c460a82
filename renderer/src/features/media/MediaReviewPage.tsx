import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '../../app/query';
import { PageHeader } from '../../components/PageHeader';
import { Pill } from '../../components/Pill';
import { Empty, QueryView } from '../../components/states';
import { formatDateTime, humanize, plural } from '../../components/format';
import type { MediaExtraction, MediaFile } from '../../api/types';
import { Pager } from '../review/Pager';
import { ReviewActions } from '../review/ReviewActions';
import { StatusFilter, reviewTone, type ReviewStatus } from '../review/StatusFilter';
import { auditMedia, getMediaStatus, listMediaAudit, mediaKeys } from './api';
import { formatBytes } from './format';

export function MediaReviewPage() {
  const [status, setStatus] = useState<ReviewStatus>('pending');
  const [page, setPage] = useState(1);
  const media = useQuery(mediaKeys.audit(status, page), (signal) => listMediaAudit(status, page, signal));
  // Approved media leave the pending list on reload: follow their extraction here.
  const [approved, setApproved] = useState<MediaFile[]>([]);
  return (
    <>
      <PageHeader title="Media review" subtitle="Approve uploads to show them to everyone and index their text for the AI coach." />
      {approved.length > 0 && (
        <section className="panel" aria-label="Just approved">
          <h2 className="panel-title">Just approved</h2>
          <ul className="link-list">
            {approved.map((item) => (
              <li key={item.id} className="approved-media">
                <strong>{item.filename}</strong>
                <ExtractionStatus id={item.id} initial={item.extraction} />
              </li>
            ))}
          </ul>
        </section>
      )}
      <StatusFilter
        value={status}
        onChange={(next) => {
          setStatus(next);
          setPage(1);
        }}
      />
      <QueryView query={media}>
        {(data) =>
          data.items.length ? (
            <>
              <div className="panel panel-flush">
                <table className="table" aria-label="Media">
                  <thead>
                    <tr>
                      <th>File</th>
                      <th>Uploaded by</th>
                      <th>Status</th>
                      <th>Text extraction</th>
                      <th aria-label="Actions" />
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((item) => (
                      <MediaRow key={item.id} media={item} onApproved={(done) => setApproved((list) => [done, ...list.filter((m) => m.id !== done.id)])} />
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager page={data} onPage={setPage} />
            </>
          ) : (
            <Empty>No {status === 'all' ? '' : `${status} `}media.</Empty>
          )
        }
      </QueryView>
    </>
  );
}

function MediaRow({ media, onApproved }: { media: MediaFile; onApproved(media: MediaFile): void }) {
  const audit = useMutation((reason: string | null) => auditMedia(media.id, reason), [mediaKeys.all]);
  const approve = async () => {
    const done = await audit.run(null);
    if (done) onApproved(done);
  };
  return (
    <tr>
      <td>
        <strong>{media.filename}</strong>
        <div className="muted small">
          {humanize(media.kind)} · {formatBytes(media.size)} · {media.bind_type === 'none' ? 'not attached' : `for ${media.bind_type}${media.bind_id ? ` #${media.bind_id}` : ''}`}
        </div>
        {media.remark && <div className="small">“{media.remark}”</div>}
      </td>
      <td>
        {media.uploader_name || '—'}
        <div className="muted small">{formatDateTime(media.created_at)}</div>
      </td>
      <td>
        <Pill tone={reviewTone[media.status]}>{humanize(media.status)}</Pill>
        {media.reject_reason && <div className="muted small">{media.reject_reason}</div>}
      </td>
      <td>{media.status === 'approved' ? <ExtractionStatus id={media.id} initial={media.extraction} /> : <span className="muted small">After approval</span>}</td>
      <td className="cell-actions">
        {media.status === 'pending' && <ReviewActions name={media.filename} busy={audit.busy} error={audit.error} onApprove={approve} onReject={(reason) => audit.run(reason)} />}
      </td>
    </tr>
  );
}

const working = (extraction: MediaExtraction) => extraction.state === 'queued' || extraction.state === 'running';

/** Follows the background extraction of an approved media until it is finished. */
function ExtractionStatus({ id, initial }: { id: number; initial: MediaExtraction }) {
  const status = useQuery(mediaKeys.status(id), (signal) => getMediaStatus(id, signal));
  const extraction = status.data?.extraction ?? initial;
  const { reload } = status;
  const busy = working(extraction);
  useEffect(() => {
    if (!busy) return;
    const timer = window.setTimeout(reload, 1500);
    return () => window.clearTimeout(timer);
  }, [busy, reload, extraction.progress, extraction.stage]);

  const text: Record<MediaExtraction['state'], string> = {
    not_started: 'Not started',
    queued: 'Queued',
    running: `${humanize(extraction.stage)} ${extraction.progress}%`,
    done: `Done: ${plural(extraction.chunks, 'chunk')} indexed`,
    failed: `Failed: ${extraction.error ?? 'unknown reason'}`,
    skipped: 'Not a text document',
  };
  return (
    <div className="stack-tight small" aria-label="Extraction status">
      <span>{text[extraction.state]}</span>
      {busy && <progress className="progress" max={100} value={extraction.progress} />}
    </div>
  );
}
