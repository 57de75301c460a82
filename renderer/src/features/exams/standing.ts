import type { ExamStanding, PaperType } from '../../api/types';
import type { Tone } from '../../components/Pill';

export const standingLabel: Record<ExamStanding, [string, Tone]> = {
  not_started: ['Not started', 'neutral'],
  in_progress: ['In progress', 'info'],
  passed: ['Passed', 'success'],
  failed: ['Not passed yet', 'danger'],
};

export const paperTypeLabel = (type: PaperType) => (type === 'formal' ? 'Formal exam' : 'Self-test');
