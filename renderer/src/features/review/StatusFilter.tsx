export type ReviewStatus = 'pending' | 'approved' | 'rejected' | 'all';

const labels: Record<ReviewStatus, string> = { pending: 'Pending', approved: 'Approved', rejected: 'Rejected', all: 'All' };

export function StatusFilter({ value, onChange }: { value: ReviewStatus; onChange(status: ReviewStatus): void }) {
  return (
    <div className="chips" role="group" aria-label="Status">
      {(Object.keys(labels) as ReviewStatus[]).map((status) => (
        <button key={status} type="button" className={`chip${status === value ? ' chip-active' : ''}`} aria-pressed={status === value} onClick={() => onChange(status)}>
          {labels[status]}
        </button>
      ))}
    </div>
  );
}

export const reviewTone = { pending: 'warning', approved: 'success', rejected: 'danger' } as const;
