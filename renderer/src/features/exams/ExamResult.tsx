import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Flex, Statistic, Typography } from 'antd';
import { PageHeader } from '../../components/PageHeader';
import { StatusTag } from '../../components/StatusTag';
import { formatClock } from '../../i18n/format';
import type { StartedExam, SubmitResult } from '../../api/types';
import { describeAnswer, sessionName } from './standing';

export function ExamResult({ exam, result, onAgain }: { exam: StartedExam; result: SubmitResult; onAgain(): void }) {
  const { t } = useTranslation();
  const questions = new Map(exam.questions.map((q) => [q.id, q]));
  return (
    <>
      <PageHeader back={{ to: '/exams', label: t('exams.back') }} title={sessionName(result, t)} subtitle={t(result.kind === 'formal' ? 'exams.result.recorded' : 'exams.result.notRecorded')} />
      <Card className={`section result-summary ${result.passed ? 'result-passed' : 'result-failed'}`}>
        <Flex gap="large" align="center" wrap>
          <Statistic title={t('exams.result.score')} value={result.score} suffix={`/ ${result.total_score}`} />
          <Flex vertical gap={6}>
            <span>
              <StatusTag tone={result.passed ? 'success' : 'danger'}>{t(result.passed ? 'exams.result.passed' : 'exams.result.failed')}</StatusTag>
            </span>
            <Typography.Text>
              {t('exams.result.summary', { correct: result.correct_count, wrong: result.wrong_count, pass: result.pass_score, time: formatClock(result.time_spent_sec) })}
            </Typography.Text>
            {result.late && <Alert type="warning" showIcon title={t('exams.result.late')} />}
            {result.certificate_id !== null && <Typography.Text>{t('exams.result.certificate')}</Typography.Text>}
          </Flex>
          <Button onClick={onAgain} className="result-again">
            {t('exams.result.again')}
          </Button>
        </Flex>
      </Card>
      <h2 className="section-title">{t('exams.result.answers')}</h2>
      <ol className="question-list" aria-label={t('exams.result.answers')}>
        {result.detail.map((d) => {
          const question = questions.get(d.question_id);
          const describe = (value: typeof d.user_answer) => (question ? describeAnswer(question.type, question.options, value, t) : String(value));
          return (
            <li key={d.question_id}>
              <Card size="small" className={`question ${d.is_correct ? 'answer-correct' : 'answer-wrong'}`}>
                <Flex justify="space-between" gap="middle">
                  <span>
                    <span className="question-number">{question?.order ?? '?'}.</span> {question?.stem ?? t('exams.result.question', { id: d.question_id })}
                  </span>
                  <StatusTag tone={d.is_correct ? 'success' : 'danger'}>{t(d.is_correct ? 'exams.answer.correct' : 'exams.answer.wrong')}</StatusTag>
                </Flex>
                <div>{t('exams.answer.yours', { answer: describe(d.user_answer) })}</div>
                {!d.is_correct && <div>{t('exams.answer.right', { answer: describe(d.correct_answer) })}</div>}
              </Card>
            </li>
          );
        })}
      </ol>
    </>
  );
}
