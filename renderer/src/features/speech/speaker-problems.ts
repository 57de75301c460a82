import type { TFunction } from 'i18next';
import type { ModelProblem, SpeakerProblem } from '../../api/types.js';

/** Why a model file cannot be used, in the reader's language. */
export function modelProblemText(problem: ModelProblem, t: TFunction): string {
  switch (problem.code) {
    case 'metadata_lacks':
      return t('transcript.admin.modelProblem.metadataLacks', { keys: problem.keys });
    case 'unknown_framework':
      return t('transcript.admin.modelProblem.unknownFramework', { framework: problem.framework, known: problem.known });
    case 'no_speaker_metadata':
      return t('transcript.admin.modelProblem.noSpeakerMetadata');
    case 'not_a_model':
      return t('transcript.admin.modelProblem.notAModel');
    case 'unreadable':
      return t('transcript.admin.modelProblem.unreadable');
  }
}

/**
 * Why speakers cannot be told apart by voice, composed in the reader's language from the server's codes and
 * parameters (the server's `reason_unavailable` is the same in English).
 */
export function speakerProblemText(problem: SpeakerProblem, t: TFunction): string {
  const kind = (k: string) => t(`transcript.admin.kinds.${k}` as never);
  switch (problem.code) {
    case 'none_installed':
      return t(problem.kind === 'speaker-segmentation' ? 'transcript.admin.speakerProblem.noSegmentation' : 'transcript.admin.speakerProblem.noEmbedding');
    case 'named_not_installed':
      return t('transcript.admin.speakerProblem.namedNotInstalled', { kind: kind(problem.kind), model: problem.model, parameter: problem.parameter });
    case 'named_wrong_kind':
      return t('transcript.admin.speakerProblem.namedWrongKind', {
        kind: kind(problem.kind),
        model: problem.model,
        parameter: problem.parameter,
        why: problem.problem ? modelProblemText(problem.problem, t) : t('transcript.admin.speakerProblem.isKind', { kind: kind(problem.found ?? 'none') }),
      });
    case 'named_unusable':
      return t('transcript.admin.speakerProblem.namedUnusable', { model: problem.model, why: modelProblemText(problem.problem, t) });
    case 'does_not_load':
      return t('transcript.admin.speakerProblem.doesNotLoad', { detail: problem.detail });
  }
}
