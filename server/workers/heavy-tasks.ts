// The CPU-heavy work on a long transcript, as tasks of the heavy pool (pool.ts): each takes one structured-cloneable
// input and gives a cloneable result, so it runs the same in a worker thread or, for a small input, inline. The
// module's default export is what the pool's threads run: one task by name.
import type { CallFigures, Transcription, TranscriptExportFormat, TranscriptSegment } from '../../contract/audio.js';
import type { ComplianceRule } from '../../contract/compliance.js';
import { callFigures } from '../audio/call-metrics.js';
import { exportTranscript, type ExportLanguage } from '../audio/transcript-export.js';
import { compileRuleSet, inspectCall, type CallInspection, type CallProduct, type CallSegment } from '../compliance/engine.js';

function figures(segments: TranscriptSegment[]): CallFigures {
  return callFigures(segments);
}

function exportFile(input: { transcription: Transcription; format: TranscriptExportFormat; language: ExportLanguage }): Promise<{ body: string | Uint8Array; filename: string }> {
  return exportTranscript(input.transcription, input.format, input.language);
}

/** The rules come as stored (a compiled matcher does not cross threads) and are compiled here. */
function inspection(input: { rules: ComplianceRule[]; segments: CallSegment[]; repSpeaker: string; product: CallProduct | null }): CallInspection {
  return inspectCall(compileRuleSet(input.rules), input.segments, input.repSpeaker, input.product);
}

export const heavyTasks = { figures, exportFile, inspection };

export type HeavyTasks = typeof heavyTasks;
export type HeavyTask = keyof HeavyTasks;
export type HeavyInput<N extends HeavyTask> = Parameters<HeavyTasks[N]>[0];
export type HeavyOutput<N extends HeavyTask> = Awaited<ReturnType<HeavyTasks[N]>>;

export default function runHeavyTask<N extends HeavyTask>({ name, input }: { name: N; input: HeavyInput<N> }): Promise<HeavyOutput<N>> | HeavyOutput<N> {
  return (heavyTasks[name] as (input: HeavyInput<N>) => Promise<HeavyOutput<N>> | HeavyOutput<N>)(input);
}
