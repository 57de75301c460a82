import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Modal } from 'antd';
import type { AnswerValue, Question } from '../../api/types';
import { QuestionCard } from '../exams/ExamSession';
import { describeAnswer } from '../exams/standing';

/** A bank question exactly as a candidate gets it in an exam (answerable), then its answer and explanation on demand. */
export function QuestionPreview({ question, onClose }: { question: Question; onClose(): void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState<AnswerValue | null>(null);
  const [revealed, setRevealed] = useState(false);
  const correct = question.type === 'multiple' ? question.answer : (question.answer[0] ?? null);
  return (
    <Modal open title={t('bank.preview.title')} onCancel={onClose} footer={<Button onClick={onClose}>{t('bank.preview.close')}</Button>} width={720}>
      <p className="muted">{t('bank.preview.help')}</p>
      <ol className="question-list">
        <QuestionCard question={{ id: question.id, order: 1, type: question.type, stem: question.stem, options: question.options }} value={value} onChange={setValue} />
      </ol>
      {revealed ? (
        <Alert
          type="info"
          title={t('bank.preview.answer', { answer: describeAnswer(question.type, question.options, correct, t) })}
          description={question.explanation || t('bank.preview.noExplanation')}
        />
      ) : (
        <Button onClick={() => setRevealed(true)}>{t('bank.preview.reveal')}</Button>
      )}
    </Modal>
  );
}
