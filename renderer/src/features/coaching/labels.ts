import type { ParseKeys } from 'i18next';
import type { Tone } from '../../components/StatusTag';
import type { CoachingModelRun, CoachingParts, ObjectionHandling } from '../../api/types';

export const handlingLabel: Record<ObjectionHandling, ParseKeys> = {
  answered: 'coaching.objection.answered',
  partly_answered: 'coaching.objection.partly_answered',
  not_answered: 'coaching.objection.not_answered',
};
export const handlingTone: Record<ObjectionHandling, Tone> = { answered: 'success', partly_answered: 'warning', not_answered: 'danger' };

export const partLabel: Record<keyof CoachingParts, ParseKeys> = {
  figures: 'coaching.parts.figures',
  structured_facts: 'coaching.parts.structured_facts',
  text_facts: 'coaching.parts.text_facts',
  objections: 'coaching.parts.objections',
  practice: 'coaching.parts.practice',
  scenario: 'coaching.parts.scenario',
};

export const modelStatusLabel: Record<CoachingModelRun['status'], ParseKeys> = {
  complete: 'coaching.model.complete',
  unavailable: 'coaching.model.unavailable',
  failed: 'coaching.model.failed',
};
export const modelStatusTone: Record<CoachingModelRun['status'], Tone> = { complete: 'success', unavailable: 'warning', failed: 'danger' };
