import { useTranslation } from 'react-i18next';
import { Card, Checkbox, Typography } from 'antd';
import type { CoachingReport, ReviewItem } from '../../api/types';
import { useUser } from '../../app/session';
import { ErrorNotice } from '../../components/states';
import { useMarkReviewItem } from './mutations';

/** The rep's review list from this call: one item per misstated fact, ticked off once reviewed (the rep's own only). */
export function ReviewList({ report }: { report: CoachingReport }) {
  const { t } = useTranslation();
  const own = useUser().id === report.user.id;
  if (!report.review_items.length) return null;
  return (
    <section aria-label={t('coaching.review.title')} className="section">
      <h2 className="section-title">{t('coaching.review.title')}</h2>
      <Card size="small">
        {own && <Typography.Paragraph type="secondary">{t('coaching.review.hint')}</Typography.Paragraph>}
        <ul className="simple-list">
          {report.review_items.map((item) => (
            <li key={item.id} className="list-row">
              <ReviewRow item={item} reportId={report.id} own={own} />
            </li>
          ))}
        </ul>
      </Card>
    </section>
  );
}

function ReviewRow({ item, reportId, own }: { item: ReviewItem; reportId: number; own: boolean }) {
  const { t } = useTranslation();
  const mark = useMarkReviewItem(reportId);
  const text = t('coaching.review.item', { label: item.label, stated: item.stated, correct: item.correct });
  return (
    <>
      {own ? (
        <Checkbox checked={item.mastered} disabled={mark.isPending} onChange={(e) => mark.mutate({ id: item.id, mastered: e.target.checked })}>
          {text}
        </Checkbox>
      ) : (
        <Typography.Text>{text}</Typography.Text>
      )}
      {item.question_ids.length > 0 && <Typography.Text type="secondary"> · {t('coaching.review.questions', { ids: item.question_ids.map((id) => `#${id}`).join(' ') })}</Typography.Text>}
      {mark.error && <ErrorNotice error={mark.error} />}
    </>
  );
}
