import type { Key, ReactNode } from 'react';
import { Link } from 'react-router';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Col, Row, Typography } from 'antd';
import { EmptyState, QueryView } from './states';
import { SimplePager } from './list/SimplePager';
import type { ListPage } from './list/list-page';

export interface CatalogCard {
  key: Key;
  to: string;
  eyebrow: string;
  title: string;
  meta?: ReactNode;
  text: string;
}

/** A page of catalog items (products, courses) as linked cards, with its empty text and pager. */
export function CatalogGrid<T>({ label, query, onPage, empty, card }: { label: string; query: UseQueryResult<ListPage<T>>; onPage(page: number): void; empty: string; card(item: T): CatalogCard }) {
  const { t } = useTranslation();
  return (
    <QueryView query={query}>
      {(data) => (
        <>
          {data.items.length ? (
            <Row gutter={[16, 16]} role="list" aria-label={label}>
              {data.items.map(card).map((c) => (
                <Col key={c.key} xs={24} md={12} xl={8} role="listitem">
                  <Link to={c.to} className="card-link">
                    <Card hoverable size="small" className="catalog-card">
                      <Typography.Text type="secondary" className="card-eyebrow">
                        {c.eyebrow}
                      </Typography.Text>
                      <h2 className="card-title">{c.title}</h2>
                      {c.meta && <Typography.Text type="secondary">{c.meta}</Typography.Text>}
                      <Typography.Paragraph className="card-text" ellipsis={{ rows: 2 }}>
                        {c.text}
                      </Typography.Paragraph>
                    </Card>
                  </Link>
                </Col>
              ))}
            </Row>
          ) : (
            <EmptyState>{data.page > 1 ? t('common.list.noMore') : empty}</EmptyState>
          )}
          <SimplePager page={data.page} hasNext={data.hasNext} onPage={onPage} />
        </>
      )}
    </QueryView>
  );
}
