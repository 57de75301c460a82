import { api } from '../../api/client';
import type { CompanyIntro } from '../../api/types';

export const companyKeys = { intro: 'company/intro' };

export const getCompanyIntro = (signal?: AbortSignal) => api.get<CompanyIntro>('/company-train', { signal });
