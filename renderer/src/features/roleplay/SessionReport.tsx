import { useTranslation } from 'react-i18next';
import { Card, List, Space, Statistic, Tag, Typography } from 'antd';
import type { Session } from '../../../../contract/roleplay.js';

/** Score, each criterion met or missed with the rep's quotes, compliance results, practice cards made. */
export function SessionReport({ session }: { session: Session }) {
  const { t, i18n } = useTranslation();
  const zh = i18n.language.startsWith('zh');
  return (
    <Card title={t('roleplay.report.title')} data-testid="roleplay-report">
      <Space size="large">
        <Statistic title={t('roleplay.report.score')} value={session.score ?? 0} suffix="/ 100" />
        <Tag color={session.passed ? 'green' : 'red'}>{session.passed ? t('roleplay.report.passed') : t('roleplay.report.failed')}</Tag>
      </Space>
      <Typography.Title level={5}>{t('roleplay.report.criteria')}</Typography.Title>
      <List
        dataSource={session.criteria ?? []}
        renderItem={(c) => (
          <List.Item>
            <List.Item.Meta
              title={
                <Space>
                  <Tag color={c.met ? 'green' : 'red'}>{c.met ? t('roleplay.report.met') : t('roleplay.report.missed')}</Tag>
                  {c.label}
                </Space>
              }
              description={c.evidence.map((e) => (
                <div key={`${e.turn_index}-${e.quote}`}>“{e.quote}”</div>
              ))}
            />
          </List.Item>
        )}
      />
      <Typography.Title level={5}>{t('roleplay.report.compliance')}</Typography.Title>
      <List
        size="small"
        dataSource={(session.compliance?.results ?? []).filter((r) => r.outcome !== 'not_applicable')}
        renderItem={(r) => (
          <List.Item>
            <Space>
              <Tag color={r.outcome === 'pass' ? 'green' : 'red'}>{r.outcome === 'pass' ? t('roleplay.report.rulePass') : t('roleplay.report.ruleFail')}</Tag>
              {zh ? r.name['zh-CN'] : r.name.en}
            </Space>
          </List.Item>
        )}
      />
      <Typography.Paragraph>{t('roleplay.report.cards', { count: session.practice_item_ids.length })}</Typography.Paragraph>
    </Card>
  );
}
