// The two system parameters of spaced review, on the review statistics screen (the general settings page stays as it
// is): the daily limit and the target retention FSRS schedules at.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Flex, Form, InputNumber } from 'antd';
import { ErrorNotice, QueryView } from '../../components/states';
import type { SystemConfig } from '../../api/types';
import { adminQueries } from '../admin/queries';
import { useSaveConfig } from '../admin/mutations';

export function ReviewSettings() {
  const config = useQuery(adminQueries.config());
  return <QueryView query={config}>{(data) => <SettingsForm config={data} />}</QueryView>;
}

function SettingsForm({ config }: { config: SystemConfig }) {
  const { t } = useTranslation();
  const save = useSaveConfig();
  const [limit, setLimit] = useState<number | null>(Number(config.review_daily_limit ?? 30));
  const [retention, setRetention] = useState<number | null>(Number(config.review_target_retention ?? 0.9));
  return (
    <Card title={<h2 className="card-heading">{t('spacedReview.settings.title')}</h2>} className="section">
      <Form layout="vertical" aria-label={t('spacedReview.settings.title')} onFinish={() => save.mutate({ review_daily_limit: limit, review_target_retention: retention })}>
        <Flex gap="large" wrap align="end">
          <Form.Item label={t('spacedReview.settings.dailyLimit')} extra={t('spacedReview.settings.dailyLimitHint')} style={{ marginBottom: 0 }}>
            <InputNumber min={1} max={1000} precision={0} value={limit} onChange={setLimit} />
          </Form.Item>
          <Form.Item label={t('spacedReview.settings.retention')} extra={t('spacedReview.settings.retentionHint')} style={{ marginBottom: 0 }}>
            <InputNumber min={0.7} max={0.99} step={0.01} precision={2} value={retention} onChange={setRetention} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('spacedReview.settings.save')}
          </Button>
        </Flex>
        {save.error && <ErrorNotice error={save.error} />}
        {save.isSuccess && <Alert type="success" showIcon title={t('spacedReview.settings.saved')} className="section" />}
      </Form>
    </Card>
  );
}
