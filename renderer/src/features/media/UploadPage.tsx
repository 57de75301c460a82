import { useRef, useState, type FormEvent } from 'react';
import { invalidate } from '../../app/query';
import { ApiError, isAbort } from '../../api/client';
import { PageHeader } from '../../components/PageHeader';
import { ErrorNotice } from '../../components/states';
import type { MediaBindType, MediaFile } from '../../api/types';
import { DIRECT_UPLOAD_LIMIT, mediaKeys, uploadMedia } from './api';
import { formatBytes } from './format';

type Upload = { state: 'idle' } | { state: 'sending'; sent: number; total: number } | { state: 'done'; media: MediaFile } | { state: 'failed'; error: ApiError | Error };

const bindLabels: Record<MediaBindType, string> = { none: 'Not attached', company: 'Company introduction', product: 'A product', course: 'A course' };

/** Any user may upload material; an administrator reviews it before anyone else sees it. */
export function UploadPage() {
  const [file, setFile] = useState<File | null>(null);
  const [bindType, setBindType] = useState<MediaBindType>('none');
  const [bindId, setBindId] = useState('');
  const [upload, setUpload] = useState<Upload>({ state: 'idle' });
  const cancel = useRef<AbortController | null>(null);
  const needsId = bindType === 'product' || bindType === 'course';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    const controller = new AbortController();
    cancel.current = controller;
    setUpload({ state: 'sending', sent: 0, total: file.size });
    try {
      const binding = { bind_type: bindType, ...(needsId ? { bind_id: Number(bindId) } : {}) };
      const media = await uploadMedia(file, binding, (sent) => setUpload({ state: 'sending', sent, total: file.size }), controller.signal);
      invalidate(mediaKeys.all);
      setUpload({ state: 'done', media });
    } catch (err) {
      setUpload(isAbort(err) ? { state: 'idle' } : { state: 'failed', error: err instanceof Error ? err : new Error(String(err)) });
    } finally {
      cancel.current = null;
    }
  };

  const sending = upload.state === 'sending';
  return (
    <>
      <PageHeader title="Upload material" subtitle="Videos, documents and images for training. An administrator reviews every upload before it is shown." />
      <form className="panel form-grid" onSubmit={submit} aria-label="Upload material">
        <label className="field form-span">
          <span>File</span>
          <input type="file" required disabled={sending} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <label className="field">
          <span>Attach to</span>
          <select value={bindType} disabled={sending} onChange={(e) => setBindType(e.target.value as MediaBindType)}>
            {(Object.keys(bindLabels) as MediaBindType[]).map((type) => (
              <option key={type} value={type}>
                {bindLabels[type]}
              </option>
            ))}
          </select>
        </label>
        {needsId && (
          <label className="field">
            <span>{bindType === 'product' ? 'Product id' : 'Course id'}</span>
            <input type="number" min={1} required disabled={sending} value={bindId} onChange={(e) => setBindId(e.target.value)} />
          </label>
        )}
        {file && (
          <p className="form-span muted small">
            {file.name}, {formatBytes(file.size)}
            {file.size > DIRECT_UPLOAD_LIMIT ? ' — sent in 5 MB parts' : ''}
          </p>
        )}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={!file || sending}>
            {sending ? 'Uploading…' : 'Upload'}
          </button>
          {sending && (
            <button type="button" className="button" onClick={() => cancel.current?.abort()}>
              Cancel
            </button>
          )}
        </div>
        {upload.state === 'sending' && <ProgressBar sent={upload.sent} total={upload.total} />}
        {upload.state === 'failed' && (
          <div className="form-span">
            <ErrorNotice error={upload.error} />
            {file && file.size > DIRECT_UPLOAD_LIMIT && <p className="muted small">Upload the same file again to carry on: the parts already sent are kept for a while.</p>}
          </div>
        )}
        {upload.state === 'done' && <div className="form-span notice notice-success">“{upload.media.filename}” was uploaded and is waiting for review.</div>}
      </form>
    </>
  );
}

function ProgressBar({ sent, total }: { sent: number; total: number }) {
  const percent = total > 0 ? Math.floor((sent / total) * 100) : 100;
  return (
    <div className="form-span stack-tight">
      <progress className="progress" max={100} value={percent} aria-label="Upload progress" />
      <span className="muted small">
        {percent}% · {formatBytes(sent)} of {formatBytes(total)}
      </span>
    </div>
  );
}
