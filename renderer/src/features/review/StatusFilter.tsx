import { useTranslation } from 'react-i18next';
import { Radio } from 'antd';
import { REVIEW_STATUSES, reviewLabel, type ReviewStatus } from './status';

export function StatusFilter({ value, onChange }: { value: ReviewStatus; onChange(status: ReviewStatus): void }) {
  const { t } = useTranslation();
  return (
    <Radio.Group
      className="section"
      aria-label={t('media.review.statusFilter')}
      optionType="button"
      value={value}
      onChange={(event) => onChange(event.target.value as ReviewStatus)}
      options={REVIEW_STATUSES.map((status) => ({ value: status, label: t(reviewLabel[status]) }))}
    />
  );
}
