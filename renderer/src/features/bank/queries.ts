import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ExamPaperAdmin, PaperStatus, PaperType, Question, QuestionStatus, QuestionType } from '../../api/types';
import { pagedArrayQuery } from '../../components/list/paged-query';

export interface DomainCount {
  domain: string;
  active: number;
  disabled: number;
}

export interface QuestionFilter {
  q: string;
  domain: string;
  type: '' | QuestionType;
  status: 'all' | QuestionStatus;
  page: number;
}

export interface PaperFilter {
  q: string;
  type: '' | PaperType;
  status: '' | PaperStatus;
  page: number;
}

export const bankKeys = {
  all: ['bank'] as const,
  domains: () => [...bankKeys.all, 'domains'] as const,
  questions: (filter: QuestionFilter) => [...bankKeys.all, 'questions', filter] as const,
  papers: (filter: PaperFilter) => [...bankKeys.all, 'papers', filter] as const,
};

export const bankQueries = {
  domains: () => queryOptions({ queryKey: bankKeys.domains(), queryFn: ({ signal }) => api.get<DomainCount[]>('/exam/questions/domains', { signal }) }),
  questions: (filter: QuestionFilter) =>
    pagedArrayQuery<Question>('/exam/questions', bankKeys.questions(filter), filter.page, { ...filter }),
  papers: (filter: PaperFilter) => pagedArrayQuery<ExamPaperAdmin>('/exam/papers', bankKeys.papers(filter), filter.page, { ...filter }),
};
