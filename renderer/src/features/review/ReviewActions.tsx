import { useState, type FormEvent } from 'react';
import type { ApiError } from '../../api/client';
import { ErrorNotice } from '../../components/states';

interface Props {
  /** Names the item in accessible labels ("Approve handbook.pdf"). */
  name: string;
  busy: boolean;
  error: ApiError | undefined;
  onApprove(): void;
  onReject(reason: string): void;
}

/** Approve, or reject with a reason typed inline (the server refuses a blank reason). */
export function ReviewActions({ name, busy, error, onApprove, onReject }: Props) {
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const submitReject = (event: FormEvent) => {
    event.preventDefault();
    onReject(reason.trim());
  };
  return (
    <div className="review-actions">
      {rejecting ? (
        <form className="review-reject" onSubmit={submitReject} aria-label={`Reject ${name}`}>
          <input aria-label="Reason for rejecting" placeholder="Reason for rejecting" required maxLength={2000} value={reason} onChange={(e) => setReason(e.target.value)} autoFocus />
          <button type="submit" className="button button-small" disabled={busy || !reason.trim()}>
            Reject
          </button>
          <button type="button" className="button button-small button-ghost" onClick={() => setRejecting(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <div className="review-buttons">
          <button type="button" className="button button-small button-primary" disabled={busy} onClick={onApprove} aria-label={`Approve ${name}`}>
            Approve
          </button>
          <button type="button" className="button button-small" disabled={busy} onClick={() => setRejecting(true)} aria-label={`Reject ${name}…`}>
            Reject…
          </button>
        </div>
      )}
      {error && <ErrorNotice error={error} />}
    </div>
  );
}
