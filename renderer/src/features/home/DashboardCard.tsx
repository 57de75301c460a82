import type { Key, ReactNode } from 'react';
import { Link } from 'react-router';
import type { UseQueryResult } from '@tanstack/react-query';
import { Card, Flex, Typography } from 'antd';
import { QueryView } from '../../components/states';
import { SimpleList } from '../../components/SimpleList';

/** One card of the home page: a titled region with a link to the full screen, showing one query's data. */
export function DashboardCard<T>({ title, more, query, children }: { title: string; more?: { to: string; label: string }; query: UseQueryResult<T>; children(data: T): ReactNode }) {
  return (
    <section aria-label={title}>
      <Card title={<h2 className="card-heading">{title}</h2>} extra={more && <Link to={more.to}>{more.label}</Link>} className="dashboard-card">
        <QueryView query={query}>{children}</QueryView>
      </Card>
    </section>
  );
}

/** A card with nothing to list says so in one quiet line (the full screens show the large empty state). */
export function CardEmpty({ children }: { children: ReactNode }) {
  return <Typography.Text type="secondary">{children}</Typography.Text>;
}

/** A card's rows: each a line with its parts at both ends; `empty` (one quiet line) when there are none. */
export function CardList<T>({ label, items, rowKey, render, empty }: { label: string; items: T[]; rowKey(item: T): Key; render(item: T): ReactNode; empty?: ReactNode }) {
  if (!items.length) return empty ? <CardEmpty>{empty}</CardEmpty> : null;
  return (
    <SimpleList
      label={label}
      items={items}
      rowKey={rowKey}
      render={(item) => (
        <Flex className="list-row" justify="space-between" align="center" gap="middle">
          {render(item)}
        </Flex>
      )}
    />
  );
}
