import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ComplianceStats, Inspection, InspectionSummary, Page, RuleSet, RuleSetSummary } from '../../api/types';
import { fromPage, PAGE_SIZE } from '../../components/list/list-page';

export interface InspectionFilters {
  rule_key: string;
  department: string;
  from: string;
  to: string;
}

export const complianceKeys = {
  all: ['compliance'] as const,
  ofCall: (transcriptionId: number) => [...complianceKeys.all, 'call', transcriptionId] as const,
  inspection: (id: number) => [...complianceKeys.all, 'inspection', id] as const,
  failed: (filters: InspectionFilters, page: number) => [...complianceKeys.all, 'failed', filters, page] as const,
  stats: (filters: Omit<InspectionFilters, 'rule_key'>) => [...complianceKeys.all, 'stats', filters] as const,
  ruleSets: () => [...complianceKeys.all, 'rule-sets'] as const,
  ruleSet: (id: number) => [...complianceKeys.all, 'rule-set', id] as const,
};

const present = (filters: object) => Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== ''));

export const complianceQueries = {
  /** The newest inspection of a call (null when it has none), read in full for its quotes and audio links. */
  ofCall: (transcriptionId: number) =>
    queryOptions({
      queryKey: complianceKeys.ofCall(transcriptionId),
      queryFn: async ({ signal }) => {
        const page = await api.get<Page<InspectionSummary>>('/compliance/inspections', { query: { transcription_id: transcriptionId, size: 1 }, signal });
        const newest = page.items[0];
        return newest ? api.get<Inspection>(`/compliance/inspections/${newest.id}`, { signal }) : null;
      },
      staleTime: 30 * 60_000,
    }),
  inspection: (id: number) => queryOptions({ queryKey: complianceKeys.inspection(id), queryFn: ({ signal }) => api.get<Inspection>(`/compliance/inspections/${id}`, { signal }), staleTime: 30 * 60_000 }),
  /** Failed calls (failed the chosen rule, when one is chosen), newest first. */
  failed: (filters: InspectionFilters, page: number) =>
    queryOptions({
      queryKey: complianceKeys.failed(filters, page),
      queryFn: async ({ signal }) => fromPage(await api.get<Page<InspectionSummary>>('/compliance/inspections', { query: { ...present(filters), outcome: 'fail', page, size: PAGE_SIZE }, signal })),
      placeholderData: keepPreviousData,
    }),
  stats: (filters: Omit<InspectionFilters, 'rule_key'>) =>
    queryOptions({ queryKey: complianceKeys.stats(filters), queryFn: ({ signal }) => api.get<ComplianceStats>('/compliance/stats', { query: present(filters), signal }) }),
  ruleSets: () => queryOptions({ queryKey: complianceKeys.ruleSets(), queryFn: ({ signal }) => api.get<RuleSetSummary[]>('/compliance/rule-sets', { signal }) }),
  ruleSet: (id: number) => queryOptions({ queryKey: complianceKeys.ruleSet(id), queryFn: ({ signal }) => api.get<RuleSet>(`/compliance/rule-sets/${id}`, { signal }) }),
};
