import { useTranslation } from 'react-i18next';
import { Card, Flex } from 'antd';
import { FlagFilled } from '@ant-design/icons';
import './integrity.css';

export type QuestionState = 'answered' | 'unanswered';

export interface NavigatorItem {
  id: number;
  order: number;
  state: QuestionState;
  flagged: boolean;
}

export const questionAnchor = (id: number) => `question-${id}`;

/** 题目导航: one button per question, answered or not and flagged or not; a click brings the question into view. */
export function QuestionNavigator({ items }: { items: NavigatorItem[] }) {
  const { t } = useTranslation();
  const go = (id: number) => {
    const target = document.getElementById(questionAnchor(id));
    target?.scrollIntoView({ block: 'start' });
    target?.querySelector<HTMLInputElement>('input')?.focus({ preventScroll: true });
  };
  const count = (state: QuestionState) => items.filter((i) => i.state === state).length;
  return (
    <Card size="small" className="question-navigator" title={<h2 className="card-heading">{t('integrity.navigator.title')}</h2>}>
      <nav aria-label={t('integrity.navigator.title')}>
        <ol className="navigator-grid">
          {items.map((item) => {
            const state = [t(`integrity.navigator.${item.state}`), ...(item.flagged ? [t('integrity.navigator.flagged')] : [])].join('，');
            return (
              <li key={item.id}>
                <button
                  type="button"
                  className={`navigator-item navigator-${item.state}${item.flagged ? ' navigator-flagged' : ''}`}
                  aria-label={t('integrity.navigator.goTo', { order: item.order, state })}
                  title={state}
                  onClick={() => go(item.id)}
                >
                  {item.order}
                  {item.flagged && <FlagFilled className="navigator-flag" aria-hidden />}
                </button>
              </li>
            );
          })}
        </ol>
      </nav>
      <Flex gap="small" wrap className="navigator-legend">
        <span>
          <span className="legend-swatch navigator-answered" aria-hidden /> {t('integrity.navigator.answered')} {count('answered')}
        </span>
        <span>
          <span className="legend-swatch navigator-unanswered" aria-hidden /> {t('integrity.navigator.unanswered')} {count('unanswered')}
        </span>
        <span>
          <FlagFilled className="navigator-flag-legend" aria-hidden /> {t('integrity.navigator.flagged')} {items.filter((i) => i.flagged).length}
        </span>
      </Flex>
    </Card>
  );
}
