import { useTranslation } from 'react-i18next';
import { Card, Flex, Typography } from 'antd';
import { StatusTag } from '../../components/StatusTag';
import type { AnswerDetail, QuestionOption, QuestionType } from '../../api/types';
import { describeAnswer } from './standing';

export interface AnsweredQuestion {
  order: number | null;
  stem: string;
  type: QuestionType;
  options: QuestionOption[];
  explanation?: string;
}

/** The paper hides its answer key from this reader: the server sent an empty correct answer. */
export const answerKeyHidden = (detail: Pick<AnswerDetail, 'correct_answer'>): boolean => (Array.isArray(detail.correct_answer) ? detail.correct_answer.length === 0 : detail.correct_answer === '');

/** One graded answer: the question, right or wrong, my answer, the right one when I missed it, and why. */
/** `whose`: the name of the person who answered, when it is not the reader (an admin reading a trainee's record). */
export function AnswerCard({ question, detail, whose }: { question: AnsweredQuestion; detail: AnswerDetail; whose?: string }) {
  const { t } = useTranslation();
  const describe = (value: AnswerDetail['user_answer']) => describeAnswer(question.type, question.options, value, t);
  return (
    <li aria-label={question.stem}>
      <Card size="small" className={`question ${detail.is_correct ? 'answer-correct' : 'answer-wrong'}`}>
        <Flex justify="space-between" gap="middle">
          <span>
            <span className="question-number">{question.order ?? '?'}.</span> {question.stem}
          </span>
          <StatusTag tone={detail.is_correct ? 'success' : 'danger'}>{t(detail.is_correct ? 'exams.answer.correct' : 'exams.answer.wrong')}</StatusTag>
        </Flex>
        <div>{whose ? t('assignments.record.answerOf', { name: whose, answer: describe(detail.user_answer) }) : t('exams.answer.yours', { answer: describe(detail.user_answer) })}</div>
        {!detail.is_correct && <div>{answerKeyHidden(detail) ? t('integrity.hidden.right') : t('exams.answer.right', { answer: describe(detail.correct_answer) })}</div>}
        {question.explanation && (
          <div className="explanation">
            <Typography.Text type="secondary">{t('exams.answer.explanation', { text: question.explanation })}</Typography.Text>
          </div>
        )}
      </Card>
    </li>
  );
}
