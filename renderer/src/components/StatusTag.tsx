import type { ReactNode } from 'react';
import { Tag } from 'antd';

export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

const colors: Record<Tone, string> = { neutral: 'default', info: 'processing', success: 'success', warning: 'warning', danger: 'error' };

export function StatusTag({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return (
    <Tag color={colors[tone]} variant="outlined">
      {children}
    </Tag>
  );
}
