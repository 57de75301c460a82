import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Flex, InputNumber, Table, Typography } from 'antd';
import { ErrorNotice } from '../../components/states';
import { humanize, useFormat } from '../../i18n/format';
import type { QuickActionId, QuickActionResult } from '../../api/types';
import { coachQueries } from './queries';
import { useQuickAction } from './mutations';

/** The coach's one-click tools for the chosen product: commission, comparison and a practice scenario. */
export function QuickActions({ productId }: { productId: number | undefined }) {
  const { t } = useTranslation();
  const actions = useQuery(coachQueries.quickActions());
  const [amount, setAmount] = useState<number | null>(null);
  const run = useQuickAction();
  const start = (id: QuickActionId) => run.mutate({ id, params: { product_id: productId, ...(id === 'commission' && amount !== null ? { amount } : {}) } });

  if (!actions.data?.actions.length) return null;
  return (
    <section aria-label={t('coach.quick.title')} className="section">
      <Card size="small">
        {productId === undefined ? (
          <Typography.Text type="secondary">{t('coach.quick.chooseProduct')}</Typography.Text>
        ) : (
          <Flex gap="small" wrap align="center">
            <label className="inline-field">
              <span>{t('coach.quick.amount')}</span>
              <InputNumber<number> min={0} value={amount} placeholder="10000" onChange={setAmount} onPressEnter={() => start('commission')} />
            </label>
            {actions.data.actions.map((action) => (
              <Button key={action.id} disabled={run.isPending} onClick={() => start(action.id)}>
                {t(`coach.quick.actions.${action.id}`)}
              </Button>
            ))}
          </Flex>
        )}
        {run.error && <ErrorNotice error={run.error} />}
        {run.data && !run.isPending && <QuickActionAnswer result={run.data} />}
      </Card>
    </section>
  );
}

const PRODUCT_FIELDS = ['name', 'code', 'category', 'risk_level', 'commission_rate', 'summary'] as const;
const isProductField = (field: string): field is (typeof PRODUCT_FIELDS)[number] => (PRODUCT_FIELDS as readonly string[]).includes(field);

function QuickActionAnswer({ result }: { result: QuickActionResult }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (result.action_id === 'scenario') return <p className="quick-action-answer pre-wrap">{result.scenario}</p>;
  if (result.action_id === 'commission') {
    const name = result.product.code ? `${result.product.name} (${result.product.code})` : result.product.name;
    return (
      <p className="quick-action-answer">
        {t(result.amount_given ? 'coach.quick.commission' : 'coach.quick.commissionExample', {
          name,
          rate: format.number(result.commission_rate),
          amount: format.number(result.amount),
          commission: format.number(result.commission),
          currency: result.currency ?? '',
        })}
      </p>
    );
  }
  const rows = result.rows.map((row) => ({ key: row.field, label: isProductField(row.field) ? t(`coach.quick.fields.${row.field}`) : humanize(row.label), values: row.values }));
  const peers = result.products.slice(1).map((p) => p.name);
  return (
    <div className="quick-action-answer">
      {result.note && <Typography.Paragraph type="secondary">{peers.length ? t('coach.quick.peers', { names: peers.join('、') }) : t('coach.quick.noPeers')}</Typography.Paragraph>}
      <Table
        aria-label={t('coach.quick.comparison')}
        size="small"
        pagination={false}
        dataSource={rows}
        columns={[
          { title: <span className="visually-hidden">{t('coach.quick.field')}</span>, dataIndex: 'label', onCell: () => ({ role: 'rowheader' }) },
          ...result.products.map((p, i) => ({ title: p.name, key: String(p.id), render: (_: unknown, row: (typeof rows)[number]) => row.values[i] ?? t('common.state.none') })),
        ]}
      />
    </div>
  );
}
