import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { CompanyIntro } from '../../api/types';

export const companyKeys = {
  all: ['company'] as const,
  intro: () => [...companyKeys.all, 'intro'] as const,
};

export const companyQueries = {
  intro: () => queryOptions({ queryKey: companyKeys.intro(), queryFn: ({ signal }) => api.get<CompanyIntro>('/company-train', { signal }) }),
};
